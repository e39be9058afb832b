import { useSyncExternalStore } from 'react';

/** Relative times ("5 minutes ago") are read to the minute, so twice a minute keeps them right. */
const tickMs = 30_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    // The clock stood still while nobody watched it.
    now = Date.now();
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
  return useSyncExternalStore(subscribe, () => now);
}
