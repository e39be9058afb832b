import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask } from './next-task.js';

const withScheduler = globalThis as { scheduler?: unknown };

describe('nextTask', () => {
  afterEach(() => {
    delete withScheduler.scheduler;
    vi.useRealTimers();
  });

  it("yields through the browser's scheduler where there is one", async () => {
    const yieldToBrowser = vi.fn(() => Promise.resolve());
    withScheduler.scheduler = { yield: yieldToBrowser };
    await nextTask();
    expect(yieldToBrowser).toHaveBeenCalledOnce();
  });

  it('otherwise resolves in a timer task, after the current task and its microtasks', async () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const next = nextTask().then(() => order.push('next task'));
    void Promise.resolve().then(() => order.push('microtask'));
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['microtask']);
    await vi.runAllTimersAsync();
    await next;
    expect(order).toEqual(['microtask', 'next task']);
  });
});
