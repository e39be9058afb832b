/**
 * Resolves in a later task of the event loop, so the work after it does not lengthen the current one: a
 * phone answers a tap between the two, and no single task of the first load blocks it for long. Uses the
 * browser's `scheduler.yield()` where there is one (its continuation runs ahead of other queued tasks),
 * else a zero-delay timer.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}
