import type { Kysely, Selectable } from 'kysely';
import type { AuditEntry, PublicLogEntry } from '../../../shared/schemas/audit.js';
import {
  moderationActionSchema,
  moderationSubjectKindSchema,
  publicModerationActions,
  type ModerationAction,
} from '../../../shared/schemas/moderation.js';
import type { Database, ModerationActionsTable } from '../../db/schema.js';
import { toId, toIsoString } from '../../db/values.js';

export interface AuditFilter {
  action?: ModerationAction | undefined;
  /** A username as recorded (without its `@`), or "operator". */
  actor?: string | undefined;
  /** A username as recorded. */
  target?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

type Row = Selectable<ModerationActionsTable>;

function parseDetails(value: string | null): Record<string, unknown> | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function toEntry(row: Row): AuditEntry | null {
  const action = moderationActionSchema.safeParse(row.action);
  // An action no version of the app knows (a newer one wrote it) is left out rather than misread.
  if (!action.success) return null;
  const kind =
    row.subjectKind === null ? null : moderationSubjectKindSchema.safeParse(row.subjectKind);
  return {
    id: toId(row.id),
    action: action.data,
    actor: { uid: row.actorId, name: row.actorName },
    target:
      row.targetUserId === null && row.targetName === null
        ? null
        : { uid: row.targetUserId, username: row.targetName },
    subject:
      kind?.success && row.subjectId !== null
        ? { kind: kind.data, id: row.subjectId, excerpt: row.excerpt }
        : null,
    reason: row.reason,
    note: row.note,
    details: parseDetails(row.details),
    public: Boolean(row.public),
    createdAt: toIsoString(row.createdAt),
  };
}

/** Reads the audit log (ADR 0021): the staff view with every column, and the public view with few. */
export class AuditLogReaderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Newest first; one more than `limit` is read so the caller knows whether a next page exists. */
  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('moderation_actions').selectAll();
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actor) {
      const actor = filter.actor;
      query =
        actor === 'operator'
          ? query.where('actorId', 'is', null)
          : query.where('actorName', '=', `@${actor}`);
    }
    if (filter.target) query = query.where('targetName', '=', filter.target);
    if (filter.cursor) query = query.where('id', '<', filter.cursor);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(filter.limit + 1)
      .execute();
    return rows.map(toEntry).filter((entry) => entry !== null);
  }

  /**
   * The public log: only actions that may be published, and only their public columns. The set of actions
   * is checked here as well as by the `public` flag written with each entry, so an entry can never be shown
   * because of a flag alone.
   */
  async listPublic(cursor: string | undefined, limit: number): Promise<PublicLogEntry[]> {
    let query = this.db
      .selectFrom('moderation_actions')
      .select(['id', 'action', 'targetName', 'subjectKind', 'reason', 'createdAt'])
      .where('public', '=', true)
      .where('action', 'in', [...publicModerationActions]);
    if (cursor) query = query.where('id', '<', cursor);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const entries: PublicLogEntry[] = [];
    for (const row of rows) {
      const action = moderationActionSchema.safeParse(row.action);
      if (!action.success) continue;
      const kind =
        row.subjectKind === null ? null : moderationSubjectKindSchema.safeParse(row.subjectKind);
      entries.push({
        id: toId(row.id),
        action: action.data,
        targetUsername: row.targetName,
        subjectKind: kind?.success ? kind.data : null,
        reason: row.reason,
        createdAt: toIsoString(row.createdAt),
      });
    }
    return entries;
  }
}
