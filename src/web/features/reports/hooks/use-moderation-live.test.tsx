// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ModerationState } from '@shared/schemas/report.js';
import { reportKeys } from '../report-keys.js';
import { useModerationLive, type LiveClient } from './use-moderation-live.js';

afterEach(cleanup);

function fakeClient() {
  let listener: (() => void) | null = null;
  let state: ModerationState | undefined;
  const unsubscribe = vi.fn();
  const client = {
    getSnapshot: () => (state ? { data: state } : undefined),
    subscribe: (_topic: string, next: () => void) => {
      listener = next;
      return unsubscribe;
    },
  } as unknown as LiveClient;
  const push = (revision: number) => {
    state = { openReports: 1, openAppeals: 0, pendingSignups: 0, revision };
    listener?.();
  };
  return { client, push, unsubscribe };
}

describe('useModerationLive', () => {
  it('reads the queue again when the revision moves, not on the first document or a repeat', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { client, push, unsubscribe } = fakeClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const view = renderHook(
      () => {
        useModerationLive(client);
      },
      { wrapper },
    );

    push(4);
    expect(invalidate).not.toHaveBeenCalled();
    push(4);
    expect(invalidate).not.toHaveBeenCalled();
    push(5);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: [...reportKeys.all, 'queue'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: [...reportKeys.all, 'appeals'] });

    view.unmount();
    expect(unsubscribe).toHaveBeenCalled();
  });
});
