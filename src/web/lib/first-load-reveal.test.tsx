// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type PageSettled = typeof import('./page-settled.js');

/** A fresh copy of the module: whether the first page is watched, and settled, is the tab's own state. */
async function freshModule(navigationType: NavigationTimingType | null): Promise<PageSettled> {
  vi.resetModules();
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue(
    navigationType === null ? [] : [{ type: navigationType } as PerformanceNavigationTiming],
  );
  return import('./page-settled.js');
}

/** Renders a list of `total` items through the hook; returns how many are on screen. */
function renderList(module: PageSettled, total: number, first?: number) {
  function List({ count }: { count: number }) {
    const shown = module.useFirstLoadReveal(count, first);
    return (
      <ul>
        {Array.from({ length: shown }, (_, index) => (
          <li key={index}>{index}</li>
        ))}
      </ul>
    );
  }
  const view = render(<List count={total} />);
  return {
    shown: () => view.container.querySelectorAll('li').length,
    setTotal: (count: number) => {
      view.rerender(<List count={count} />);
    },
  };
}

/**
 * Watches `module`'s first page with a query still on its way, which keeps the page settling until
 * `answer` is called. Returns the query client (to clear) and the answer.
 */
function watchUnsettled(module: PageSettled) {
  const queryClient = new QueryClient();
  let answer: (value: string) => void = () => undefined;
  queryClient
    .query({
      queryKey: ['slow'],
      queryFn: () =>
        new Promise<string>((resolve) => {
          answer = resolve;
        }),
    })
    .catch(() => undefined);
  module.watchFirstPage(queryClient);
  return { queryClient, answer: (value: string) => answer(value) };
}

/** Runs one timer turn: the next step of the reveal, if one is due. */
async function nextTurn(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('useFirstLoadReveal', () => {
  it('renders a first page opened afresh a few items at a time, each step in a turn of its own', async () => {
    const module = await freshModule('navigate');
    // A query still on its way keeps the page settling.
    const { queryClient } = watchUnsettled(module);
    expect(module.firstPageOpening()).toBe(true);

    const list = renderList(module, 11);
    expect(list.shown()).toBe(module.firstRevealItems);
    const steps: number[] = [];
    while (list.shown() < 11) {
      await nextTurn();
      steps.push(list.shown());
    }
    const expected: number[] = [];
    for (let shown = module.firstRevealItems; shown < 11;) {
      shown = Math.min(11, shown + module.revealStepItems);
      expected.push(shown);
    }
    expect(steps).toEqual(expected);
    expect(steps.length).toBeGreaterThan(1);
    // Once every item is in, the list renders in full: a next page comes at once.
    list.setTotal(20);
    expect(list.shown()).toBe(20);
    queryClient.clear();
  });

  it('can leave a list out of the first paint, and bring its items one task after it', async () => {
    const module = await freshModule('navigate');
    const { queryClient } = watchUnsettled(module);
    const list = renderList(module, 3, 0);
    expect(list.shown()).toBe(0);
    await nextTurn();
    expect(list.shown()).toBe(module.revealStepItems);
    while (list.shown() < 3) await nextTurn();
    list.setTotal(5);
    expect(list.shown()).toBe(5);
    queryClient.clear();
  });

  it('renders everything at once on a reload or a return, where the browser restores the scroll', async () => {
    for (const type of ['reload', 'back_forward'] as const) {
      const module = await freshModule(type);
      module.watchFirstPage(new QueryClient());
      expect(module.firstPageOpening()).toBe(false);
      const list = renderList(module, 11);
      expect(list.shown()).toBe(11);
      cleanup();
    }
  });

  it('renders everything at once where nothing watches the first page, and once it has settled', async () => {
    const unwatched = await freshModule('navigate');
    expect(renderList(unwatched, 11).shown()).toBe(11);
    cleanup();

    const module = await freshModule('navigate');
    module.watchFirstPage(new QueryClient());
    // jsdom's page has loaded, has no idle callback and no query: it settles within a few turns.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    await module.whenPageSettled();
    expect(module.firstPageOpening()).toBe(false);
    expect(renderList(module, 11).shown()).toBe(11);
  });
});

describe('whenPageSettled on a first page', () => {
  it('lets each part that waits continue in a task of its own once the page settles', async () => {
    const module = await freshModule('navigate');
    const { queryClient, answer } = watchUnsettled(module);
    const continued: string[] = [];
    // What the first part saw of the second once its own task's microtasks had all run.
    let secondDuringFirst: boolean | undefined;
    void module.whenPageSettled().then(async () => {
      continued.push('first');
      for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
      secondDuringFirst = continued.includes('second');
    });
    void module.whenPageSettled().then(() => {
      continued.push('second');
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(continued).toEqual([]);

    answer('here');
    await vi.advanceTimersByTimeAsync(10);
    expect(continued).toEqual(['first', 'second']);
    expect(secondDuringFirst).toBe(false);
    // Once settled, a caller goes on at once, in the same task.
    let late = false;
    void module.whenPageSettled().then(() => {
      late = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(late).toBe(true);
    queryClient.clear();
  });
});
