import type { Kysely, Transaction } from 'kysely';
import {
  publicModerationActions,
  type ModerationAction,
  type ModerationSubjectKind,
} from '../../../shared/schemas/moderation.js';
import type { Database } from '../../db/schema.js';
import { toId } from '../../db/values.js';

/** Who did it: a signed-in moderator or administrator, or the operator at the command line (uid null). */
export interface AuditActor {
  uid: string | null;
  /** `@username`, or "operator". */
  name: string;
}

export const operatorActor: AuditActor = { uid: null, name: 'operator' };

export interface AuditEntry {
  actor: AuditActor;
  action: ModerationAction;
  /** The account acted on, with its username as it was. */
  target?: { uid: string; username: string | null } | null;
  subject?: { kind: ModerationSubjectKind; id: string; excerpt?: string | null } | null;
  /** Sent to the person and shown in the public log when it is published. */
  reason?: string | null;
  /** Moderators only. */
  note?: string | null;
  details?: Record<string, unknown> | null;
}

/**
 * Writes the audit log (ADR 0021). Every moderator and administrator action calls `record`, in the same
 * transaction as the change where there is one, so the log never misses or invents an action.
 */
export class AuditLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records one action; answers its id. */
  async record(entry: AuditEntry, trx?: Transaction<Database>): Promise<string> {
    const row = await (trx ?? this.db)
      .insertInto('moderation_actions')
      .values({
        actorId: entry.actor.uid,
        actorName: entry.actor.name,
        action: entry.action,
        targetUserId: entry.target?.uid ?? null,
        targetName: entry.target?.username ?? null,
        subjectKind: entry.subject?.kind ?? null,
        subjectId: entry.subject?.id ?? null,
        excerpt: entry.subject?.excerpt ?? null,
        reason: entry.reason ?? null,
        note: entry.note ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
        public: publicModerationActions.has(entry.action),
        createdAt: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toId(row.id);
  }
}
