import type { Kysely } from 'kysely';
import type { InstanceRule } from '../../../shared/schemas/instance.js';
import type { Database } from '../../db/schema.js';
import { toId } from '../../db/values.js';
import type { AuditEntry, AuditLogRepository } from '../moderation/audit-log.repository.js';

export type RuleText = Pick<InstanceRule, 'text' | 'description'>;

/**
 * The only place that reads and writes `instance_rules`. Every change is recorded in the audit log in the
 * same transaction, so the log never misses or invents one (ADR 0021).
 */
export class InstanceRulesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditLogRepository,
  ) {}

  /** Every rule, in order. */
  async list(db: Kysely<Database> = this.db): Promise<InstanceRule[]> {
    const rows = await db
      .selectFrom('instance_rules')
      .select(['id', 'text', 'description'])
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: toId(row.id), text: row.text, description: row.description }));
  }

  async find(ruleId: string): Promise<InstanceRule | undefined> {
    const row = await this.db
      .selectFrom('instance_rules')
      .select(['id', 'text', 'description'])
      .where('id', '=', ruleId)
      .executeTakeFirst();
    return row && { id: toId(row.id), text: row.text, description: row.description };
  }

  /** Adds a rule at the end unless there are already `max`; answers its id, or null when full. */
  async create(
    rule: RuleText,
    max: number,
    audit: (id: string) => AuditEntry,
  ): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const { count, last } = await trx
        .selectFrom('instance_rules')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('count'),
          eb.fn.max<number | null>('position').as('last'),
        ])
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return null;
      const now = new Date().toISOString();
      const row = await trx
        .insertInto('instance_rules')
        .values({
          position: (last ?? -1) + 1,
          text: rule.text,
          description: rule.description,
          createdAt: now,
          updatedAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = toId(row.id);
      await this.audit.record(audit(id), trx);
      return id;
    });
  }

  /** Answers whether the rule was there to change. */
  async update(ruleId: string, rule: RuleText, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('instance_rules')
        .set({
          text: rule.text,
          description: rule.description,
          updatedAt: new Date().toISOString(),
        })
        .where('id', '=', ruleId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await this.audit.record(audit, trx);
      return true;
    });
  }

  /** Answers whether the rule was there to delete. */
  async delete(ruleId: string, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('instance_rules')
        .where('id', '=', ruleId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await this.audit.record(audit, trx);
      return true;
    });
  }

  /**
   * Puts the rules in the given order when `ids` names every rule once; answers false (changing nothing)
   * when it does not, as when another administrator added or deleted one meanwhile.
   */
  async reorder(ids: readonly string[], audit: AuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.list(trx);
      const known = new Set(current.map((rule) => rule.id));
      const given = new Set(ids);
      if (given.size !== ids.length || given.size !== known.size) return false;
      if (ids.some((id) => !known.has(id))) return false;
      const now = new Date().toISOString();
      for (const [position, id] of ids.entries()) {
        await trx
          .updateTable('instance_rules')
          .set({ position, updatedAt: now })
          .where('id', '=', id)
          .execute();
      }
      await this.audit.record(audit, trx);
      return true;
    });
  }
}
