import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The async-local storages of this process that let go of Node's promise hook whenever none of them has a
 * context open (ADR 0046).
 *
 * On Node 20 an `AsyncLocalStorage` that has run once turns on a hook that every promise the process makes
 * afterwards goes through, to carry the store along, even promises that no store will ever be read from.
 * The auth library opens its contexts only while it handles a sign-in, a sign-up or a session read; the
 * rest of the time the hook costs every request 5–7% of its CPU for nothing. A storage `scoped` here
 * counts the contexts its `run` opens, and once the last of them has settled, all the scoped storages are
 * disabled, which turns the hook off until the next `run`.
 *
 * A context is open while its callback runs and, when the callback returns a promise, until that promise
 * settles: so work the callback starts and does not wait for (a promise left behind) must not read the store.
 * `enterWith`, which opens a context with no end, is refused.
 */

interface Registry {
  storages: Set<AsyncLocalStorage<unknown>>;
  open: number;
}

// One per process, as the hook is: a second copy of this module (a test runner's fresh module graph) counts
// with the first rather than wrapping the auth library's storages a second time.
const registryKey = Symbol.for('hearth.scoped-async-contexts');
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[registryKey] ??= {
  storages: new Set(),
  open: 0,
});

function contextClosed(): void {
  registry.open -= 1;
  if (registry.open > 0) return;
  for (const storage of registry.storages) storage.disable();
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Makes `storage` one of the scoped storages (idempotent) and returns it. */
export function scoped<T>(storage: AsyncLocalStorage<T>): AsyncLocalStorage<T> {
  if (registry.storages.has(storage)) return storage;
  registry.storages.add(storage);
  const run = storage.run.bind(storage);
  storage.run = <R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R => {
    registry.open += 1;
    let result: R;
    try {
      result = run(store, callback, ...args);
    } catch (error) {
      contextClosed();
      throw error;
    }
    if (isPromiseLike(result)) result.then(contextClosed, contextClosed);
    else contextClosed();
    return result;
  };
  storage.enterWith = () => {
    throw new Error('a scoped async-local storage opens its contexts with run() alone');
  };
  return storage;
}

/** How many contexts of the scoped storages are open (for tests). */
export function openScopedContexts(): number {
  return registry.open;
}
