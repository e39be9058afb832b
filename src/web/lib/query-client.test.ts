import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.js';
import {
  createQueryClient,
  refreshViewerQueries,
  resetViewerQueries,
  shouldRetry,
} from './query-client.js';

describe('shouldRetry', () => {
  it('never retries a client error', () => {
    const notFound = new ApiError({ status: 404, code: 'not_found', message: 'Gone.' });
    expect(shouldRetry(0, notFound)).toBe(false);
  });
  it('retries network and server failures twice', () => {
    const network = new ApiError({ status: 0, code: 'network_error', message: 'Offline.' });
    expect(shouldRetry(0, network)).toBe(true);
    expect(shouldRetry(1, network)).toBe(true);
    expect(shouldRetry(2, network)).toBe(false);
    const server = new ApiError({ status: 503, code: 'unavailable', message: 'Busy.' });
    expect(shouldRetry(0, server)).toBe(true);
  });
});

describe('viewer queries', () => {
  /** Caches `data` under `key`, with a screen showing it when `onScreen`; counts the reads that follow. */
  function cached(queryClient: QueryClient, key: string[], data: string, onScreen: boolean) {
    const reads = vi.fn(() => Promise.resolve(`${data} again`));
    queryClient.setQueryData(key, data);
    const observer = new QueryObserver(queryClient, { queryKey: key, queryFn: reads });
    if (onScreen) observer.subscribe(() => undefined);
    return { reads };
  }

  it('refresh drops what no screen shows and reads again what one does, showing it meanwhile', async () => {
    const queryClient = createQueryClient();
    const hidden = cached(queryClient, ['viewer', 'hidden'], 'hidden', false);
    const shown = cached(queryClient, ['viewer', 'shown'], 'shown', true);
    const other = cached(queryClient, ['public'], 'public', false);
    refreshViewerQueries(queryClient, ['viewer']);
    expect(queryClient.getQueryData(['viewer', 'hidden'])).toBeUndefined();
    expect(queryClient.getQueryData(['viewer', 'shown'])).toBe('shown');
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(['viewer', 'shown'])).toBe('shown again');
    });
    expect(shown.reads).toHaveBeenCalledTimes(1);
    expect(hidden.reads).not.toHaveBeenCalled();
    expect(queryClient.getQueryData(['public'])).toBe('public');
    expect(other.reads).not.toHaveBeenCalled();
  });

  it('reset drops what no screen shows and loads from nothing what one does', async () => {
    const queryClient = createQueryClient();
    cached(queryClient, ['viewer', 'hidden'], 'hidden', false);
    const shown = cached(queryClient, ['viewer', 'shown'], 'shown', true);
    resetViewerQueries(queryClient, ['viewer']);
    expect(queryClient.getQueryData(['viewer', 'hidden'])).toBeUndefined();
    expect(queryClient.getQueryData(['viewer', 'shown'])).toBeUndefined();
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(['viewer', 'shown'])).toBe('shown again');
    });
    expect(shown.reads).toHaveBeenCalledTimes(1);
  });
});
