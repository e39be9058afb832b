import { chunkLoadTimeoutMs } from '@shared/limits.js';

/** A lazily loaded part of the app could not be fetched, even after the retry. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

class ChunkTimeoutError extends Error {
  override readonly name = 'ChunkTimeoutError';
}

/** Rejects when `promise` has not settled within `timeoutMs`. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChunkTimeoutError(`Timed out after ${timeoutMs} ms.`));
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface LoadChunkOptions {
  timeoutMs?: number;
  retries?: number;
}

/**
 * spec §9: a chunk gets 120,000 ms to load; we try once more, then give up with a ChunkLoadError
 * that the error screen turns into a Reload button.
 */
export async function loadChunk<T>(
  load: () => Promise<T>,
  { timeoutMs = chunkLoadTimeoutMs, retries = 1 }: LoadChunkOptions = {},
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    try {
      return await withTimeout(load(), timeoutMs);
    } catch (error) {
      lastError = error;
    }
  }
  throw new ChunkLoadError('This part of the app could not be loaded.', { cause: lastError });
}

/** True for our ChunkLoadError and for the browser's own failed-dynamic-import errors. */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|importing a module script failed|error loading dynamically imported module|unable to preload css/i.test(
    error.message,
  );
}
