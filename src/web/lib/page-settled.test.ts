import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  pageSettles,
  queriesQuiet,
  settleIdleTimeoutMs,
  settleMaxWaitMs,
  whenPageSettled,
  type SettleTarget,
} from './page-settled.js';

/** A page whose load event and idle moments the test decides. */
function fakePage(readyState: DocumentReadyState = 'loading') {
  const loadListeners: (() => void)[] = [];
  const idleCallbacks: (() => void)[] = [];
  const target: SettleTarget = {
    document: { readyState },
    addEventListener: (_type, listener) => {
      loadListeners.push(listener);
    },
    requestIdleCallback: (callback) => {
      idleCallbacks.push(callback);
    },
    setTimeout: (callback, ms) => setTimeout(callback, ms),
  };
  return {
    target,
    load: () => {
      for (const listener of loadListeners.splice(0)) listener();
    },
    idle: () => {
      for (const callback of idleCallbacks.splice(0)) callback();
    },
    idleWaits: () => idleCallbacks.length,
  };
}

/** Whether `promise` has settled, after the pending microtasks ran. */
async function isDone(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('pageSettles', () => {
  it('waits for the load event, an idle moment, the answers, and one more idle moment', async () => {
    const page = fakePage();
    let answer: () => void = () => undefined;
    const quiet = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          answer = resolve;
        }),
    );
    const settled = pageSettles(page.target, quiet);
    expect(await isDone(settled)).toBe(false);
    page.load();
    expect(await isDone(settled)).toBe(false);
    // The app renders in the idle moment after the load, and asks its questions: only then are they awaited.
    expect(quiet).not.toHaveBeenCalled();
    page.idle();
    expect(await isDone(settled)).toBe(false);
    expect(quiet).toHaveBeenCalledTimes(1);
    answer();
    expect(await isDone(settled)).toBe(false);
    expect(page.idleWaits()).toBe(1);
    page.idle();
    expect(await isDone(settled)).toBe(true);
  });

  it('starts from the idle wait when the page has loaded already', async () => {
    const page = fakePage('complete');
    const settled = pageSettles(page.target, () => Promise.resolve());
    await vi.advanceTimersByTimeAsync(0);
    page.idle();
    await vi.advanceTimersByTimeAsync(0);
    page.idle();
    expect(await isDone(settled)).toBe(true);
  });

  it('holds nothing back for longer than its cap, whatever never finishes', async () => {
    const page = fakePage();
    const settled = pageSettles(page.target, () => new Promise<void>(() => undefined));
    await vi.advanceTimersByTimeAsync(settleMaxWaitMs - 1);
    expect(await isDone(settled)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isDone(settled)).toBe(true);
  });

  it('asks for idle moments with a time limit, so a busy page does not wait on them for ever', async () => {
    const requested: number[] = [];
    void pageSettles(
      {
        ...fakePage('complete').target,
        requestIdleCallback: (_callback, options) => {
          requested.push(options.timeout);
        },
      },
      () => Promise.resolve(),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(requested).toEqual([settleIdleTimeoutMs]);
  });
});

describe('queriesQuiet', () => {
  it('resolves once no query is fetching', async () => {
    const client = new QueryClient();
    expect(await isDone(queriesQuiet(client))).toBe(true);
    let answer: (value: string) => void = () => undefined;
    void client.query({
      queryKey: ['slow'],
      queryFn: () =>
        new Promise<string>((resolve) => {
          answer = resolve;
        }),
    });
    const quiet = queriesQuiet(client);
    expect(await isDone(quiet)).toBe(false);
    answer('here');
    expect(await isDone(quiet)).toBe(true);
    client.clear();
  });
});

describe('whenPageSettled', () => {
  it('is settled at once where nothing watches the first page', async () => {
    expect(await isDone(whenPageSettled())).toBe(true);
  });
});
