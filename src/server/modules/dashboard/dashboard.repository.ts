import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Tables counted per day in the dashboard's charts, each by its `createdAt` (indexed). */
export type DailyTable = 'users' | 'posts' | 'comments';

/** One histogram cell of page-performance reports. */
export interface WebVitalCount {
  day: string;
  page: string;
  metric: string;
  bucket: number;
  count: number;
}

/**
 * The dashboard's figures. Every query is bounded: counts over an indexed column or a date range, and the
 * web-vitals table only ever holds a fixed set of pages, metrics and buckets per day.
 */
export class DashboardRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Rows created per UTC day since `since`, by day (YYYY-MM-DD); days without any are absent. */
  async countPerDay(table: DailyTable, since: Date): Promise<Map<string, number>> {
    // SQLite keeps ISO-8601 text in UTC, whose first ten characters are the day.
    const day =
      this.dialect === 'postgres'
        ? sql<string>`to_char(${sql.ref('createdAt')} at time zone 'UTC', 'YYYY-MM-DD')`
        : sql<string>`substr(${sql.ref('createdAt')}, 1, 10)`;
    const rows = await this.db
      .selectFrom(table)
      .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('createdAt', '>=', since.toISOString())
      .groupBy(day)
      .execute();
    return new Map(rows.map((row) => [row.day, Number(row.count)]));
  }

  async count(table: DailyTable | 'media'): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Accounts whose last signed-in request came at or after `since`. */
  async activeSince(since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('lastActiveAt', '>=', since.toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async openReports(): Promise<number> {
    const row = await this.db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async pendingAppeals(): Promise<number> {
    const row = await this.db
      .selectFrom('appeals')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async awaitingApproval(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      // The column is a boolean in PostgreSQL and 0/1 in SQLite; `true` binds as either.
      .where(sql.ref('awaitingApproval'), '=', true)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Records that an account made a signed-in request at `at`. */
  async markActive(uid: string, at: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ lastActiveAt: at.toISOString() })
      .where('id', '=', uid)
      .execute();
  }

  /** Adds counts to the daily histograms. */
  async addWebVitals(counts: readonly WebVitalCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.db
      .insertInto('web_vitals')
      .values([...counts])
      .onConflict((oc) =>
        oc.columns(['day', 'page', 'metric', 'bucket']).doUpdateSet((eb) => ({
          count: eb(eb.ref('web_vitals.count'), '+', eb.ref('excluded.count')),
        })),
      )
      .execute();
  }

  /** The histograms from `sinceDay` on, summed over the days: at most pages × metrics × buckets rows. */
  async webVitalsSince(sinceDay: string): Promise<Omit<WebVitalCount, 'day'>[]> {
    const rows = await this.db
      .selectFrom('web_vitals')
      .select(['page', 'metric', 'bucket', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('day', '>=', sinceDay)
      .groupBy(['page', 'metric', 'bucket'])
      .execute();
    return rows.map((row) => ({
      page: row.page,
      metric: row.metric,
      bucket: row.bucket,
      count: Number(row.count),
    }));
  }

  /** Deletes the days before `beforeDay`; answers how many rows went. */
  async pruneWebVitals(beforeDay: string): Promise<number> {
    const result = await this.db
      .deleteFrom('web_vitals')
      .where('day', '<', beforeDay)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
