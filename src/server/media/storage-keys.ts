const safeKey = /^[a-z]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/;

/**
 * Storage keys are made by the server; anything else is a bug, never a path to write to. Every storage
 * driver checks with this one function, kept apart from the drivers so none imports another.
 */
export function assertSafeKey(key: string): void {
  if (!safeKey.test(key)) throw new Error(`refusing to store under an unsafe key: ${key}`);
}
