// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard, WebVitalsReport } from '@shared/schemas/dashboard.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { renderRoute } from '@web/test/render-route.js';
import { DashboardView } from './dashboard-view.js';

/** uPlot draws on a canvas jsdom lacks: a stand-in records what would be drawn. */
const plots = vi.hoisted(
  () => [] as { series: unknown[]; data: unknown[][]; destroyed: boolean }[],
);
vi.mock('uplot', () => {
  class FakePlot {
    width = 400;
    private readonly record;
    constructor(options: { series: unknown[] }, data: unknown[][]) {
      this.record = { series: options.series, data, destroyed: false };
      plots.push(this.record);
    }
    setSize() {}
    destroy() {
      this.record.destroyed = true;
    }
    static tzDate(date: Date) {
      return date;
    }
  }
  return { default: FakePlot };
});
vi.mock('uplot/dist/uPlot.min.css', () => ({}));

function days(fill: (index: number) => Partial<Dashboard['days'][number]> = () => ({})) {
  const today = Date.UTC(2026, 4, 30);
  return Array.from({ length: 30 }, (_, index) => ({
    day: new Date(today - (29 - index) * 86_400_000).toISOString().slice(0, 10),
    signups: 0,
    posts: 0,
    comments: 0,
    ...fill(index),
  }));
}

function dashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    generatedAt: '2026-05-30T12:00:00.000Z',
    days: days(),
    activeUsers: { day: 0, week: 0, month: 0 },
    totals: { users: 1, posts: 0, comments: 0 },
    openReports: 0,
    openAppeals: 0,
    awaitingApproval: 0,
    media: { count: 0 },
    ...overrides,
  };
}

const noVitals: WebVitalsReport = { since: '2026-05-24', days: 7, pages: [] };

/** Answers the two reads; either may be a failure status. */
function stubReads(answers: { dashboard: () => Response; vitals?: () => Response }) {
  return stubFetch((input) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://hearth.test');
    if (url.pathname === '/api/admin/dashboard') return Promise.resolve(answers.dashboard());
    if (url.pathname === '/api/admin/web-vitals') {
      return Promise.resolve((answers.vitals ?? (() => jsonResponse(noVitals)))());
    }
    return Promise.resolve(jsonResponse({ error: { code: 'not_found', message: 'No.' } }, 404));
  });
}

const show = () => renderRoute({ path: '/admin', url: '/admin', element: <DashboardView /> });

describe('the dashboard', () => {
  beforeEach(() => {
    plots.length = 0;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    vi.stubGlobal('matchMedia', () => ({
      matches: false,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says it is loading, then shows an error with a retry that works', async () => {
    let fail = true;
    stubReads({
      dashboard: () =>
        fail
          ? jsonResponse({ error: { code: 'internal', message: 'The server broke.' } }, 500)
          : jsonResponse(dashboard({ openReports: 4 })),
    });
    show();
    expect(screen.getByRole('status').textContent).toContain('Loading the dashboard');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: "The dashboard didn't load" })).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const reports = await screen.findByText('Open reports');
    expect(reports.parentElement?.textContent).toContain('4');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a new instance as empty, not as broken', async () => {
    stubReads({ dashboard: () => jsonResponse(dashboard()) });
    show();
    expect(await screen.findByRole('heading', { name: 'Nothing to chart yet' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'No reports yet' })).toBeTruthy();
    expect(plots).toHaveLength(0);
  });

  it('charts the days with a summary and the figures, and rates page performance in words', async () => {
    stubReads({
      dashboard: () =>
        jsonResponse(
          dashboard({
            days: days((index) =>
              index === 27
                ? { posts: 5, comments: 2, signups: 1 }
                : { posts: index === 29 ? 1 : 0 },
            ),
            totals: { users: 3, posts: 6, comments: 2 },
            activeUsers: { day: 1, week: 2, month: 3 },
          }),
        ),
      vitals: () =>
        jsonResponse({
          ...noVitals,
          pages: [
            {
              page: '/post/:postId',
              metrics: [
                { metric: 'LCP', p75: 2_600, rating: 'needs-improvement', samples: 12 },
                { metric: 'CLS', p75: 0.02, rating: 'good', samples: 1 },
              ],
            },
          ],
        }),
    });
    show();
    const posts = await screen.findByRole('region', { name: 'Posts and comments per day' });
    expect(
      within(posts).getByText(
        '6 posts and 2 comments in the last 30 days; the most posts on one day was 5, on 28 May.',
      ),
    ).toBeTruthy();
    const signups = screen.getByRole('region', { name: 'Sign-ups per day' });
    expect(within(signups).getByText(/^1 sign-up in the last 30 days/)).toBeTruthy();
    // The figures are one click away, a row per day.
    await userEvent.click(within(posts).getByText('Show the figures'));
    const table = within(posts).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByRole('row', { name: '28 May 5 2' })).toBeTruthy();
    // Two plots, the second with two series.
    expect(plots).toHaveLength(2);
    expect(plots[1]?.data).toHaveLength(3);
    expect(plots[1]?.data[1]?.[27]).toBe(5);

    const vitals = await screen.findByRole('table', { name: /Page performance by page/ });
    const row = within(vitals).getByRole('row', { name: /post\/:postId/ });
    expect(row.textContent).toContain('2.6 s');
    expect(row.textContent).toContain('Needs improvement');
    expect(row.textContent).toContain('12 samples');
    expect(row.textContent).toContain('Good');
    expect(row.textContent).toContain('1 sample');
    expect(within(row).getAllByText('No samples')).toHaveLength(3);
  });

  it('destroys its plots when it goes', async () => {
    stubReads({
      dashboard: () => jsonResponse(dashboard({ days: days((index) => ({ posts: index })) })),
    });
    const view = show();
    await screen.findByRole('region', { name: 'Posts and comments per day' });
    // The plots are made in an effect, which Preact runs after the next frame, not as the chart shows.
    await vi.waitFor(() => {
      expect(plots.length).toBeGreaterThan(0);
    });
    act(() => {
      view.unmount();
    });
    expect(plots.every((plot) => plot.destroyed)).toBe(true);
  });
});
