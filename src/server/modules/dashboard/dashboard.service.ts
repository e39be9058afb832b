import type { Logger } from 'pino';
import {
  dashboardDays,
  webVitalMetricSchema,
  webVitalMetrics,
  webVitalPageSchema,
  webVitalsKeepDays,
  webVitalsSummaryDays,
  type Dashboard,
  type WebVitalPage,
  type WebVitalSummary,
  type WebVitalsBatch,
  type WebVitalsReport,
} from '../../../shared/schemas/dashboard.js';
import type { DashboardRepository, WebVitalCount } from './dashboard.repository.js';
import { bucketOf, summarise } from './web-vitals-buckets.js';

const dayMs = 24 * 60 * 60_000;

/** How long counted figures are served before they are counted again. */
export const dashboardCacheMs = 30_000;

/** YYYY-MM-DD of a moment, in UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The `count` UTC days up to and including the day of `now`, oldest first. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, index) =>
    utcDay(new Date(today - (count - 1 - index) * dayMs)),
  );
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/** The console's dashboard figures and the web app's page-performance reports. */
export class DashboardService {
  #dashboard: Cached<Dashboard> | undefined;
  #webVitals: Cached<WebVitalsReport> | undefined;
  /** The last UTC day old page-performance aggregates were pruned on, in this process. */
  #prunedOn: string | undefined;

  constructor(
    private readonly repository: DashboardRepository,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The dashboard's figures, counted at most every `dashboardCacheMs`; concurrent callers share one count. */
  dashboard(): Promise<Dashboard> {
    this.#dashboard = this.fresh(this.#dashboard, () => this.countDashboard());
    return this.#dashboard.value;
  }

  /** The last 7 days of page-performance reports, summarised per page and metric. */
  webVitals(): Promise<WebVitalsReport> {
    this.#webVitals = this.fresh(this.#webVitals, () => this.summariseWebVitals());
    return this.#webVitals.value;
  }

  /** Forgets the counted figures, so the next read counts afresh (operator tooling and tests). */
  forget(): void {
    this.#dashboard = undefined;
    this.#webVitals = undefined;
  }

  /** Adds one batch of measurements to today's histograms; prunes old days once a day. */
  async ingest(batch: WebVitalsBatch): Promise<void> {
    const now = this.now();
    const day = utcDay(now);
    const cells = new Map<string, WebVitalCount>();
    for (const entry of batch.entries) {
      const bucket = bucketOf(entry.metric, entry.value);
      const key = `${entry.page}\u0000${entry.metric}\u0000${String(bucket)}`;
      const cell = cells.get(key);
      if (cell) cell.count += 1;
      else cells.set(key, { day, page: entry.page, metric: entry.metric, bucket, count: 1 });
    }
    await this.repository.addWebVitals([...cells.values()]);
    if (this.#prunedOn !== day) {
      this.#prunedOn = day;
      const before = lastDays(now, webVitalsKeepDays)[0] ?? day;
      // Pruning is housekeeping: a failure is logged, and the report is still taken.
      await this.repository
        .pruneWebVitals(before)
        .catch((error: unknown) => this.log.warn({ err: error }, 'could not prune web vitals'));
    }
  }

  private fresh<T>(cached: Cached<T> | undefined, count: () => Promise<T>): Cached<T> {
    const now = Date.now();
    if (cached && now - cached.at < dashboardCacheMs) return cached;
    const value = count();
    // A failed count is not kept: the next request tries again.
    value.catch(() => {
      if (this.#dashboard?.value === value) this.#dashboard = undefined;
      if (this.#webVitals?.value === value) this.#webVitals = undefined;
    });
    return { at: now, value };
  }

  private async countDashboard(): Promise<Dashboard> {
    const now = this.now();
    const days = lastDays(now, dashboardDays);
    const since = new Date(`${days[0] ?? utcDay(now)}T00:00:00.000Z`);
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const [
      signups,
      posts,
      comments,
      activeDay,
      activeWeek,
      activeMonth,
      users,
      postTotal,
      commentTotal,
      media,
      openReports,
      openAppeals,
      awaitingApproval,
    ] = await Promise.all([
      this.repository.countPerDay('users', since),
      this.repository.countPerDay('posts', since),
      this.repository.countPerDay('comments', since),
      this.repository.activeSince(ago(dayMs)),
      this.repository.activeSince(ago(7 * dayMs)),
      this.repository.activeSince(ago(30 * dayMs)),
      this.repository.count('users'),
      this.repository.count('posts'),
      this.repository.count('comments'),
      this.repository.count('media'),
      this.repository.openReports(),
      this.repository.pendingAppeals(),
      this.repository.awaitingApproval(),
    ]);
    return {
      generatedAt: now.toISOString(),
      days: days.map((day) => ({
        day,
        signups: signups.get(day) ?? 0,
        posts: posts.get(day) ?? 0,
        comments: comments.get(day) ?? 0,
      })),
      activeUsers: { day: activeDay, week: activeWeek, month: activeMonth },
      totals: { users, posts: postTotal, comments: commentTotal },
      openReports,
      openAppeals,
      awaitingApproval,
      media: { count: media },
    };
  }

  private async summariseWebVitals(): Promise<WebVitalsReport> {
    const since = lastDays(this.now(), webVitalsSummaryDays)[0] ?? utcDay(this.now());
    const rows = await this.repository.webVitalsSince(since);
    const histograms = new Map<WebVitalPage, Map<string, Map<number, number>>>();
    for (const row of rows) {
      // Rows are only ever written from validated input; anything else is skipped, not trusted.
      const page = webVitalPageSchema.safeParse(row.page);
      const metric = webVitalMetricSchema.safeParse(row.metric);
      if (!page.success || !metric.success) continue;
      let metrics = histograms.get(page.data);
      if (!metrics) histograms.set(page.data, (metrics = new Map<string, Map<number, number>>()));
      let buckets = metrics.get(metric.data);
      if (!buckets) metrics.set(metric.data, (buckets = new Map<number, number>()));
      buckets.set(row.bucket, (buckets.get(row.bucket) ?? 0) + row.count);
    }
    const pages = [...histograms.entries()].map(([page, metrics]) => {
      const summaries: WebVitalSummary[] = [];
      for (const metric of webVitalMetrics) {
        const buckets = metrics.get(metric);
        const summary = buckets && summarise(metric, buckets);
        if (summary) summaries.push(summary);
      }
      return { page, metrics: summaries };
    });
    const samples = (page: { metrics: WebVitalSummary[] }) =>
      page.metrics.reduce((most, metric) => Math.max(most, metric.samples), 0);
    pages.sort((a, b) => samples(b) - samples(a) || a.page.localeCompare(b.page));
    return { since, days: webVitalsSummaryDays, pages };
  }
}

/** Entries kept per process by the activity tracker before the oldest are dropped. */
const trackedAccountsMax = 10_000;
/** How often, at most, one account's last activity is written. */
export const activityWriteEveryMs = 10 * 60_000;

/**
 * Keeps `users.lastActiveAt` to within ten minutes (the dashboard's active users) without a write per
 * request: each process writes an account's time at most once per interval, remembering the last write in a
 * bounded map. A failed write is logged and never fails the request.
 */
export class ActivityTracker {
  readonly #written = new Map<string, number>();

  constructor(
    private readonly repository: DashboardRepository,
    private readonly log: Logger,
  ) {}

  seen(uid: string): void {
    const now = Date.now();
    const last = this.#written.get(uid);
    if (last !== undefined && now - last < activityWriteEveryMs) return;
    this.#written.delete(uid);
    if (this.#written.size >= trackedAccountsMax) {
      // Insertion order is write order: the first entry is the oldest.
      const oldest = this.#written.keys().next();
      if (!oldest.done) this.#written.delete(oldest.value);
    }
    this.#written.set(uid, now);
    this.repository.markActive(uid, new Date(now)).catch((error: unknown) => {
      this.#written.delete(uid);
      this.log.warn({ err: error }, 'could not record account activity');
    });
  }
}
