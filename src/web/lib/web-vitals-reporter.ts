import type { DataRouter } from 'react-router';
import { adminDashboardEndpoints } from '@shared/contract/endpoints/admin-dashboard.js';
import type { WebVitalEntry } from '@shared/schemas/dashboard.js';
import {
  webVitalPages,
  webVitalThresholds,
  webVitalsBatchMax,
  type WebVitalMetric,
  type WebVitalPage,
} from '@shared/web-vitals.js';

/**
 * The page-performance reporter (issue: moderation and administration §4): for a share of page loads,
 * measures LCP, INP, CLS, FCP and TTFB with the `web-vitals` library and sends them, batched, when the page
 * is hidden or left. A page load is counted under the route pattern it opened on (`/post/:postId`, never
 * the address), so nothing in a report names a person or a post.
 */

const knownPages = new Set<string>(webVitalPages);

/** The route pattern of a list of matched routes: their paths joined, with the console folded into one. */
export function pagePattern(paths: readonly (string | undefined)[]): WebVitalPage {
  const segments = paths
    .filter((path): path is string => path !== undefined && path !== '')
    .map((path) => path.replace(/^\/+|\/+$/g, ''));
  if (segments.at(-1) === '*') return '*';
  const pattern = `/${segments.join('/')}`;
  if (pattern === '/admin' || pattern.startsWith('/admin/')) return '/admin/*';
  return knownPages.has(pattern) ? (pattern as WebVitalPage) : '*';
}

/** The page a router is on now. */
export function currentPage(router: Pick<DataRouter, 'state'>): WebVitalPage {
  return pagePattern(router.state.matches.map((match) => match.route.path));
}

/** A measurement as the server takes it: whole milliseconds (CLS to four places), within range. */
export function toEntry(page: WebVitalPage, metric: WebVitalMetric, value: number): WebVitalEntry {
  const { unit, max } = webVitalThresholds[metric];
  const rounded = unit === 'ms' ? Math.round(value) : Math.round(value * 10_000) / 10_000;
  return { page, metric, value: Math.min(Math.max(rounded, 0), max) };
}

type Send = (body: string) => void;

/** `sendBeacon` with a JSON body; when the browser refuses it, a keep-alive fetch. */
const sendReport: Send = (body) => {
  const path = adminDashboardEndpoints.reportWebVitals.path;
  const blob = new Blob([body], { type: 'application/json' });
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(path, blob)) return;
  void fetch(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
};

/** Collects measurements and sends them in batches of at most `webVitalsBatchMax`. */
export class VitalsQueue {
  readonly #pending: WebVitalEntry[] = [];
  readonly #seen = new Set<string>();

  constructor(private readonly send: Send = sendReport) {}

  /** Adds one measurement; each metric instance (its `id`) is counted once, at its first report. */
  add(id: string, entry: WebVitalEntry): void {
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.#pending.push(entry);
  }

  flush(): void {
    while (this.#pending.length > 0) {
      const entries = this.#pending.splice(0, webVitalsBatchMax);
      this.send(JSON.stringify({ entries }));
    }
  }
}

let started = false;

/**
 * Starts measuring this page load, if it is one of the sampled share. `sampleRate` is the instance's
 * (from GET /api/instance); the library is downloaded only for sampled loads.
 */
export async function startWebVitals(
  router: Pick<DataRouter, 'state'>,
  sampleRate: () => Promise<number>,
): Promise<void> {
  if (started) return;
  started = true;
  const page = currentPage(router);
  const rate = await sampleRate().catch(() => 0);
  if (!(Math.random() < rate)) return;
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import('web-vitals');
  const queue = new VitalsQueue();
  const record = (metric: { id: string; name: WebVitalMetric; value: number }) => {
    queue.add(metric.id, toEntry(page, metric.name, metric.value));
  };
  for (const observe of [onCLS, onFCP, onINP, onLCP, onTTFB]) observe(record);
  // The library reports its final values as the page is hidden; these listeners are added after its own,
  // so they run after it and send what it reported.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') queue.flush();
  });
  addEventListener('pagehide', () => {
    queue.flush();
  });
}
