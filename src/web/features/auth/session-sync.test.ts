import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionResponse } from '@shared/schemas/auth.js';
import { makeMe } from '@web/test/user-fixtures.js';
import { authKeys } from './auth-keys.js';
import { recheckSession, settleWaitMs } from './session-sync.js';

const ada = makeMe({ uid: 'ada' });
const grace = makeMe({ uid: 'grace' });

/** A tab showing `signedIn`, whose session query answers `server` when read again. */
function tab(signedIn: SessionResponse, server: SessionResponse) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const reads = vi.fn(() => Promise.resolve(server));
  queryClient.setQueryData(authKeys.session(), signedIn);
  // On screen, as the AuthProvider holds it.
  new QueryObserver(queryClient, { queryKey: authKeys.session(), queryFn: reads }).subscribe(
    () => undefined,
  );
  return { queryClient, reads };
}

const channels: BroadcastChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) channel.close();
});

/** Another tab of the browser, listening on the channel of auth-broadcast.ts. */
function otherTab() {
  const heard = vi.fn();
  const channel = new BroadcastChannel('hearth-auth');
  channel.onmessage = heard;
  channels.push(channel);
  return heard;
}

describe('recheckSession', () => {
  it('signs the tab out when the server says its session ended, and tells the other tabs', async () => {
    const { queryClient, reads } = tab({ user: ada }, { user: null });
    const heard = otherTab();
    expect(await recheckSession(queryClient)).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(authKeys.session())).toEqual({ user: null });
    await vi.waitFor(() => {
      expect(heard).toHaveBeenCalledTimes(1);
    });
  });

  it('keeps a session the server still knows (a newer one of the same account) and tells nobody', async () => {
    const { queryClient, reads } = tab({ user: ada }, { user: ada });
    const heard = otherTab();
    expect(await recheckSession(queryClient)).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(authKeys.session())).toEqual({ user: ada });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).not.toHaveBeenCalled();
  });

  it('follows a switch to another account', async () => {
    const { queryClient } = tab({ user: ada }, { user: grace });
    expect(await recheckSession(queryClient)).toBe(false);
    expect(queryClient.getQueryData(authKeys.session())).toEqual({ user: grace });
  });

  it('waits for the tab’s own write under way, whose answer may carry its new session', async () => {
    const { queryClient, reads } = tab({ user: ada }, { user: ada });
    let answer: () => void = () => undefined;
    const write = new MutationObserver(queryClient, {
      mutationFn: () =>
        new Promise<void>((resolve) => {
          answer = resolve;
        }),
    });
    const written = write.mutate();
    const rechecked = recheckSession(queryClient);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).not.toHaveBeenCalled();
    answer();
    await written;
    expect(await rechecked).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads the session anyway once a write has been under way too long', async () => {
    vi.useFakeTimers();
    try {
      const { queryClient, reads } = tab({ user: ada }, { user: null });
      const write = new MutationObserver(queryClient, {
        mutationFn: () => new Promise(() => undefined),
      });
      void write.mutate();
      const rechecked = recheckSession(queryClient);
      await vi.advanceTimersByTimeAsync(settleWaitMs - 1);
      expect(reads).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await rechecked).toBe(false);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks nothing when the tab is signed out already: 401 is then the expected answer', async () => {
    const { queryClient, reads } = tab({ user: null }, { user: null });
    expect(await recheckSession(queryClient)).toBe(false);
    expect(reads).not.toHaveBeenCalled();
  });
});
