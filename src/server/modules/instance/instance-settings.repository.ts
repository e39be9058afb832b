import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The only place that reads and writes `instance_settings`: one JSON value per key. */
export class InstanceSettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<Map<string, unknown>> {
    const rows = await this.db.selectFrom('instance_settings').select(['key', 'value']).execute();
    const values = new Map<string, unknown>();
    for (const row of rows) {
      try {
        values.set(row.key, JSON.parse(row.value));
      } catch {
        // A value no version wrote is the same as none: its default applies.
      }
    }
    return values;
  }

  async set(key: string, value: unknown): Promise<void> {
    const row = { key, value: JSON.stringify(value), updatedAt: new Date().toISOString() };
    await this.db
      .insertInto('instance_settings')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({ value: row.value, updatedAt: row.updatedAt }),
      )
      .execute();
  }
}
