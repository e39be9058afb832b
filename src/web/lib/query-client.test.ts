import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.js';
import { shouldRetry } from './query-client.js';

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
