import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chunkLoadTimeoutMs } from '@shared/limits.js';
import { ChunkLoadError, isChunkLoadError, loadChunk } from './chunk-loader.js';

describe('loadChunk (spec §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns the module when the first attempt works', async () => {
    const load = vi.fn(() => Promise.resolve('module'));
    await expect(loadChunk(load)).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('retries once after a failure', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('module');
    await expect(loadChunk(load)).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives up with a ChunkLoadError after the one retry', async () => {
    const load = vi.fn(() => Promise.reject(new Error('offline')));
    const error: unknown = await loadChunk(load).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('times out each attempt after 120,000 ms', async () => {
    expect(chunkLoadTimeoutMs).toBe(120_000);
    const load = vi.fn(() => new Promise<string>(() => undefined));
    const result = loadChunk(load).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(chunkLoadTimeoutMs - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(chunkLoadTimeoutMs);
    expect(await result).toBeInstanceOf(ChunkLoadError);
  });
});

describe('isChunkLoadError', () => {
  it('recognises ours and the browsers’ dynamic-import failures', () => {
    expect(isChunkLoadError(new ChunkLoadError('x'))).toBe(true);
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('nope')).toBe(false);
  });
});
