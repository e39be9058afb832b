import type {
  AuditPage,
  AuditQuery,
  PublicLogPage,
  PublicLogQuery,
} from '../../../shared/schemas/audit.js';
import type { InstanceSettings } from '../../../shared/schemas/instance.js';
import { NotFound } from '../../errors.js';
import type { AuditLogReaderRepository } from './audit-log.reader.repository.js';

function page<T extends { id: string }>(
  items: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const more = items.length > limit;
  const shown = more ? items.slice(0, limit) : items;
  return { items: shown, nextCursor: more ? (shown.at(-1)?.id ?? null) : null };
}

/**
 * Reading the audit log (ADR 0021): all of it for moderators and administrators (the routes allow only
 * them), and the public moderation log for everyone while an administrator publishes it (ADR 0023).
 */
export class AuditLogService {
  constructor(
    private readonly reader: AuditLogReaderRepository,
    private readonly settings: { current(): Promise<InstanceSettings> },
  ) {}

  async list(query: AuditQuery): Promise<AuditPage> {
    const entries = await this.reader.list(query);
    return page(entries, query.limit);
  }

  async listPublic(query: PublicLogQuery): Promise<PublicLogPage> {
    const { publicModerationLog } = await this.settings.current();
    if (!publicModerationLog) {
      throw new NotFound("This instance's administrators do not publish its moderation log.");
    }
    return page(await this.reader.listPublic(query.cursor, query.limit), query.limit);
  }
}
