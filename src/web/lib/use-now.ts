import { useSyncExternalStore } from 'react';

/** Relative times ("5 minutes ago") are read to the minute, so twice a minute keeps them right. */
export const tickMs = 30_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

/**
 * The shared time, brought forward once it is a tick behind: the clock stands still while nobody watches
 * it. Within a tick it stays the same, so the times a page renders together agree, and a component that
 * starts watching does not make the ones rendered with it render again.
 */
function current(): number {
  const time = Date.now();
  if (time - now >= tickMs) now = time;
  return now;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    current();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, tickMs);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, shared by every relative time on the page through one timer. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, current);
}
