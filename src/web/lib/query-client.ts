import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api-client.js';

const maxRetries = 2;

/** Client errors (4xx) are answers, not glitches: retrying them only delays the message. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < maxRetries;
}

/** The one QueryClient of the tab. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetry,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

/**
 * For answers that depend on who asks, after the viewer changed: those under `queryKey` that no screen shows
 * are dropped, and those on screen are read again while they go on showing (a fetch already under way for
 * the new viewer is joined, not repeated).
 */
export function refreshViewerQueries(queryClient: QueryClient, queryKey: QueryKey): void {
  queryClient.removeQueries({ queryKey, type: 'inactive' });
  void queryClient.invalidateQueries({ queryKey, type: 'active' }, { cancelRefetch: false });
}

/**
 * For answers that belong wholly to the previous viewer (their sessions, their Following feed): those off
 * screen are dropped, and screens showing one load it again from nothing.
 */
export function resetViewerQueries(queryClient: QueryClient, queryKey: QueryKey): void {
  queryClient.removeQueries({ queryKey, type: 'inactive' });
  void queryClient.resetQueries({ queryKey, type: 'active' });
}
