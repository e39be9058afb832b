// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appeal, ReportGroup } from '@shared/schemas/report.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { renderRoute, seenRequest, signedIn, type SeenRequest } from '@web/test/render-route.js';
import { AdminReportsPage } from './admin-reports-page.js';

// The live topic is tested with the hook; here the page reads over HTTP only.
vi.mock('@web/features/reports/hooks/use-moderation-live.js', () => ({
  useModerationLive: () => undefined,
}));

beforeEach(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(cleanup);

const author = {
  uid: 'u2',
  username: 'bo',
  displayName: 'Bo Baker',
  firstName: 'Bo',
  lastName: 'Baker',
  avatarThumb: null,
  active: true,
};

function makeGroup(overrides: Partial<ReportGroup> = {}): ReportGroup {
  return {
    id: '501',
    targetKind: 'post',
    targetId: '7',
    status: 'open',
    lastReportAt: '2025-05-01T12:00:00.000Z',
    snapshot: {
      kind: 'post',
      id: '7',
      postId: null,
      text: 'Buy cheap watches now',
      images: [{ url: '/media/a.webp', key: 'a', alt: 'A watch' }],
      author: { uid: 'u2', username: 'bo', displayName: 'Bo Baker' },
      createdAt: '2025-05-01T11:00:00.000Z',
      rule: null,
    },
    contentState: 'exists',
    removal: null,
    author: { ...author, role: 'user', suspended: false, suspendedUntil: null },
    history: { count: 2, recent: [] },
    reports: [
      {
        id: '900',
        reason: 'spam',
        ruleId: null,
        ruleText: null,
        comment: 'Posted ten times',
        createdAt: '2025-05-01T12:00:00.000Z',
        status: 'open',
        outcome: null,
        resolvedAt: null,
        reporter: {
          ...author,
          uid: 'u3',
          username: 'cy',
          displayName: 'Cy Cole',
          firstName: 'Cy',
          lastName: 'Cole',
        },
      },
    ],
    reportCount: 1,
    ...overrides,
  };
}

const page = (items: unknown[]) => jsonResponse({ items, nextCursor: null });

function renderPage(url = '/admin/reports') {
  return renderRoute({
    path: '/admin/reports',
    url,
    element: <AdminReportsPage />,
    auth: signedIn(),
  });
}

describe('AdminReportsPage', () => {
  it('shows a designed empty state when nothing is open', async () => {
    stubFetch(() => Promise.resolve(page([])));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No open reports' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says when the queue did not load, and tries again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    stubFetch(() => {
      calls += 1;
      return Promise.resolve(
        calls === 1
          ? jsonResponse({ error: { code: 'internal', message: 'The server fell over.' } }, 500)
          : page([]),
      );
    });
    renderPage();
    expect(await screen.findByText('The server fell over.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No open reports' })).toBeTruthy();
  });

  it('shows a group with its content, author, history and reports', async () => {
    stubFetch(() => Promise.resolve(page([makeGroup()])));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Post by Bo Baker' });
    expect(within(card).getByText('Buy cheap watches now')).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'A watch' })).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Bo Baker' }).getAttribute('href')).toBe(
      '/admin/users/u2',
    );
    expect(within(card).getByText('Earlier moderation: 2 entries')).toBeTruthy();
    expect(within(card).getByText('Spam')).toBeTruthy();
    expect(within(card).getByText('“Posted ten times”')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Cy Cole' })).toBeTruthy();
    for (const name of ['Dismiss', 'Remove', 'Warn', 'Suspend']) {
      expect(within(card).getByRole('button', { name })).toBeTruthy();
    }
  });

  it('marks deleted content and offers no Remove for it', async () => {
    stubFetch(() => Promise.resolve(page([makeGroup({ contentState: 'deleted' })])));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Post by Bo Baker' });
    expect(within(card).getByText('Deleted by its author')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('suspends with a reason and a duration, and the group leaves the Open list', async () => {
    const user = userEvent.setup();
    const seen: SeenRequest[] = [];
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      seen.push(request);
      if (request.url.pathname === '/api/admin/reports/resolve') {
        return Promise.resolve(jsonResponse({ outcome: 'suspended', closed: 1, actionId: '77' }));
      }
      return Promise.resolve(
        page(request.url.searchParams.get('status') === 'open' ? [makeGroup()] : []),
      );
    });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Post by Bo Baker' });
    await user.click(within(card).getByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend the author' });
    // A reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByText('Give a reason. It is sent to the person.')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('For how long'), '7d');
    await user.type(within(dialog).getByLabelText('Reason'), 'Spam, again');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Post by Bo Baker' })).toBeNull();
    });
    const posted = seen.filter((r) => r.method === 'POST');
    expect(posted[0]?.body).toEqual({
      targetKind: 'post',
      targetId: '7',
      action: 'suspend',
      reason: 'Spam, again',
      duration: '7d',
    });
  });

  it('keeps the dialog open with the error when an action fails', async () => {
    const user = userEvent.setup();
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      if (request.method === 'POST') {
        return Promise.resolve(
          jsonResponse({ error: { code: 'forbidden', message: 'Not on an equal role.' } }, 403),
        );
      }
      return Promise.resolve(page([makeGroup()]));
    });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Post by Bo Baker' });
    await user.click(within(card).getByRole('button', { name: 'Warn' }));
    const dialog = screen.getByRole('dialog', { name: 'Warn the author' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Be nicer');
    await user.click(within(dialog).getByRole('button', { name: 'Warn' }));
    expect(await within(dialog).findByText('Not on an equal role.')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Post by Bo Baker' })).toBeTruthy();
  });

  it('lists open appeals with the suspension reason and decides them', async () => {
    const user = userEvent.setup();
    const appeal: Appeal = {
      id: '61',
      status: 'pending',
      text: 'It was a joke between friends.',
      createdAt: '2025-05-01T12:00:00.000Z',
      user: author,
      suspension: {
        reason: 'Threats',
        since: '2025-05-01T10:00:00.000Z',
        until: '2025-05-04T10:00:00.000Z',
        current: true,
      },
      decidedAt: null,
      decisionReason: null,
      decidedBy: null,
    };
    const seen: SeenRequest[] = [];
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      seen.push(request);
      if (request.method === 'POST') {
        return Promise.resolve(
          jsonResponse({ ...appeal, status: 'accepted', decisionReason: 'Fair enough' }),
        );
      }
      return Promise.resolve(
        page(request.url.searchParams.get('status') === 'pending' ? [appeal] : []),
      );
    });
    renderPage('/admin/reports?tab=appeals');
    const card = await screen.findByRole('article', { name: 'Appeal by Bo Baker' });
    expect(within(card).getByText('Threats')).toBeTruthy();
    expect(within(card).getByText('It was a joke between friends.')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Accept' }));
    const dialog = screen.getByRole('dialog', { name: 'Accept the appeal' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Fair enough');
    await user.click(within(dialog).getByRole('button', { name: 'Accept and lift' }));
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Appeal by Bo Baker' })).toBeNull();
    });
    const posted = seen.find((r) => r.method === 'POST');
    expect(posted?.url.pathname).toBe('/api/admin/appeals/61/decision');
    expect(posted?.body).toEqual({ accept: true, reason: 'Fair enough' });
  });
});
