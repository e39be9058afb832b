import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { nextTask } from './next-task.js';

/**
 * When the first page has settled: its own resources are in (the window's load event), the app has had a
 * moment to render, the questions it then asked the API have all been answered, and the main thread has
 * had one more idle moment to show the answers. The parts of the app a reader does not need to see the
 * page wait for it (ADR 0035): the realtime socket and its protocol's code, the composer and the account
 * menu (each shown meanwhile as its look-alike placeholder), the bell's count, the forms an author is
 * likely to open, and the page-performance reporter. On a phone they would otherwise share the
 * connection and the processor with the page's own code, data and first image. A page that never settles
 * (an image that hangs, an answer that never comes) holds them back for `settleMaxWaitMs` at most.
 */
export const settleMaxWaitMs = 2_000;

/** How long the main thread may stay busy before an idle wait ends anyway. */
export const settleIdleTimeoutMs = 500;

export interface SettleTarget {
  document: Pick<Document, 'readyState'>;
  addEventListener: (type: 'load', listener: () => void, options: { once: true }) => void;
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => unknown;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

/**
 * A promise of the page's settling in `target`, resolved at most `maxWaitMs` after the call. `quiet`
 * resolves once no answer the page asked for is on its way.
 */
export function pageSettles(
  target: SettleTarget,
  quiet: () => Promise<void>,
  maxWaitMs = settleMaxWaitMs,
): Promise<void> {
  const idle = () =>
    new Promise<void>((resolve) => {
      if (target.requestIdleCallback) {
        target.requestIdleCallback(() => resolve(), { timeout: settleIdleTimeoutMs });
      } else {
        target.setTimeout(resolve, 0);
      }
    });
  const loaded = new Promise<void>((resolve) => {
    if (target.document.readyState === 'complete') resolve();
    else target.addEventListener('load', () => resolve(), { once: true });
  });
  const cap = new Promise<void>((resolve) => {
    target.setTimeout(resolve, maxWaitMs);
  });
  return Promise.race([cap, loaded.then(idle).then(quiet).then(idle)]);
}

/** Resolves once `queryClient` has no query fetching. */
export function queriesQuiet(queryClient: QueryClient): Promise<void> {
  return new Promise<void>((resolve) => {
    if (queryClient.isFetching() === 0) {
      resolve();
      return;
    }
    const stop = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      stop();
      resolve();
    });
  });
}

let settled: Promise<void> | undefined;
let isSettled = false;

/**
 * Starts watching for this tab's first page to settle (main.tsx, once, before the first render), with the
 * app's query client, whose answers the page waits for.
 */
export function watchFirstPage(queryClient: QueryClient): void {
  if (settled || typeof window === 'undefined') return;
  settled = pageSettles(
    {
      document: window.document,
      addEventListener: (type, listener, options) => {
        window.addEventListener(type, listener, options);
      },
      requestIdleCallback:
        typeof window.requestIdleCallback === 'function'
          ? (callback, options) => window.requestIdleCallback(callback, options)
          : undefined,
      setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    },
    () => queriesQuiet(queryClient),
  ).then(() => {
    isSettled = true;
  });
}

/**
 * Whether this is a tab's first page, opened afresh (not reloaded, nor reached by Back, where the browser
 * restores a scroll position), and still settling. A long list then renders its first items alone, and the
 * rest a few at a time (`useFirstLoadReveal`).
 */
export function firstPageOpening(): boolean {
  if (!settled || isSettled || typeof performance === 'undefined') return false;
  const [navigation] = performance.getEntriesByType('navigation');
  return navigation !== undefined && 'type' in navigation && navigation.type === 'navigate';
}

/**
 * How many items a list renders with a first page's first paint, unless it asks for fewer: one (a post's
 * first comment thread), so that render stays a short task on a phone. A list of posts asks for none: the
 * shell and the page frame are already that render's work, and its skeleton holds the posts' place for
 * the one task until they come. The next items follow within a few milliseconds, long before a reader
 * scrolls.
 */
export const firstRevealItems = 1;

/** How many more items each later step renders, each step a task of its own (one post: a few ms). */
export const revealStepItems = 1;

/**
 * How many of a list's `total` items to render. Everywhere but a first page opened afresh, all of them.
 * There the first few (`first`) render at once, with the page's first paint, and the rest follow a few at
 * a time, each step a short task of its own: a phone paints the top of the list sooner, and no single task
 * keeps it from answering a tap. Once all are in, the list renders in full ever after.
 */
export function useFirstLoadReveal(total: number, first = firstRevealItems): number {
  const [limit, setLimit] = useState(() => (firstPageOpening() ? first : Number.POSITIVE_INFINITY));
  useEffect(() => {
    if (limit === Number.POSITIVE_INFINITY || total === 0) return;
    const timer = setTimeout(() => {
      // Once every item is in, the list renders in full, whatever comes later (another page of it).
      setLimit((shown) =>
        shown + revealStepItems >= total ? Number.POSITIVE_INFINITY : shown + revealStepItems,
      );
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, [limit, total]);
  return Math.min(limit, total);
}

/**
 * This tab's first page settling; resolved at once where nothing watches for it (tests, tools), and
 * once the page has settled. Until then, each caller continues in a task of its own after the page
 * settles: the parts that wait for it (the socket's protocol, the composer, the menu, the bell's count,
 * the reporter) were otherwise all one task of about 90 ms on a fast machine, and four times that on a
 * phone.
 */
export function whenPageSettled(): Promise<void> {
  if (!settled) {
    isSettled = true;
    settled = Promise.resolve();
  }
  return isSettled ? settled : settled.then(nextTask);
}

/** Whether the first page has settled: false on the first load until it has, true ever after. */
export function usePageSettled(): boolean {
  const [value, setValue] = useState(isSettled);
  useEffect(() => {
    if (value) return;
    let active = true;
    void whenPageSettled().then(() => {
      if (active) setValue(true);
    });
    return () => {
      active = false;
    };
  }, [value]);
  return value;
}

/** Loads a part the reader is likely to want soon, once the first page has settled. */
export function preloadWhenSettled(load: () => Promise<unknown>): void {
  void whenPageSettled()
    .then(load)
    .catch(() => undefined);
}
