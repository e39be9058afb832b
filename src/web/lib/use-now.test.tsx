// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tickMs, useNow } from './use-now.js';

/** Components that show the shared time, counting their renders. */
function renderClocks(count: number) {
  const renders: number[] = Array.from({ length: count }, () => 0);
  function Clock({ index }: { index: number }) {
    const now = useNow();
    renders[index] = (renders[index] ?? 0) + 1;
    return <time data-testid="clock">{now}</time>;
  }
  const view = render(
    <>
      {renders.map((_, index) => (
        <Clock key={index} index={index} />
      ))}
    </>,
  );
  const shown = () => view.getAllByTestId('clock').map((clock) => Number(clock.textContent));
  return { renders, shown };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useNow', () => {
  it('renders a page of clocks once each, all at the same time', () => {
    const { renders, shown } = renderClocks(5);
    expect(renders).toEqual([1, 1, 1, 1, 1]);
    expect(new Set(shown()).size).toBe(1);
  });

  it('moves every clock on together once a tick', async () => {
    const { renders, shown } = renderClocks(3);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(tickMs);
    });
    expect(renders).toEqual([2, 2, 2]);
    expect(shown()).toEqual([Date.now(), Date.now(), Date.now()]);
  });

  it('brings a clock that nobody watched forward when the next one renders', async () => {
    renderClocks(1);
    cleanup();
    // Nobody watches for a while: the timer stopped, so nothing moved the clock.
    await vi.advanceTimersByTimeAsync(5 * tickMs);
    const { renders, shown } = renderClocks(2);
    expect(renders).toEqual([1, 1]);
    expect(shown()).toEqual([Date.now(), Date.now()]);
  });
});
