// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationGroup } from '@shared/schemas/notification.js';
import { notificationKeys } from '@web/features/notifications/notification-keys.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makeNotificationGroup, makeUnreadState } from '@web/test/notification-fixtures.js';
import { makeAuthor } from '@web/test/post-fixtures.js';
import {
  renderRoute,
  seenRequest,
  signedIn,
  signedOut,
  type SeenRequest,
} from '@web/test/render-route.js';
import { NotificationsPage } from './notifications-page.js';

// The bell follows its topic over the socket; these tests set the unread state in the cache instead.
vi.mock('@web/lib/realtime-client.js', () => ({
  realtimeClient: { subscribe: () => () => undefined, getSnapshot: () => undefined },
}));

afterEach(cleanup);

const ana = makeAuthor({ uid: 'a', username: 'ana', firstName: 'Ana', lastName: null });
const bo = makeAuthor({ uid: 'b', username: 'bo', firstName: 'Bo', lastName: null });

const likes = makeNotificationGroup({
  id: '12',
  kind: 'like',
  unread: true,
  actors: [ana, bo],
  actorCount: 14,
  post: { id: '40', excerpt: 'Bread recipe' },
});
const follow = makeNotificationGroup({
  id: '8',
  kind: 'follow',
  actors: [bo],
  actorCount: 1,
  post: null,
});
const mention = makeNotificationGroup({
  id: '5',
  kind: 'mention',
  actors: [ana],
  actorCount: 1,
  post: { id: '41', excerpt: 'Hello @ada' },
});

interface Lists {
  all?: (cursor: string | null) => { items: NotificationGroup[]; nextCursor: string | null };
  mentions?: () => { items: NotificationGroup[]; nextCursor: string | null };
  fail?: number;
}

function stubNotifications(lists: Lists) {
  const seen: SeenRequest[] = [];
  let failures = lists.fail ?? 0;
  stubFetch((input, init) => {
    const request = seenRequest(input, init);
    seen.push(request);
    const { pathname, searchParams } = request.url;
    if (pathname === '/api/notifications/unread') {
      return Promise.resolve(jsonResponse(makeUnreadState({ unread: 1, newestId: '12' })));
    }
    if (pathname === '/api/notifications/read') {
      return Promise.resolve(jsonResponse(makeUnreadState({ unread: 0, newestId: '12' })));
    }
    if (pathname === '/api/notifications') {
      if (failures > 0) {
        failures -= 1;
        return Promise.resolve(
          jsonResponse({ error: { code: 'internal', message: 'Down.' } }, 500),
        );
      }
      const page =
        searchParams.get('tab') === 'mentions'
          ? (lists.mentions?.() ?? { items: [], nextCursor: null })
          : (lists.all?.(searchParams.get('cursor')) ?? { items: [], nextCursor: null });
      return Promise.resolve(jsonResponse(page));
    }
    return Promise.resolve(jsonResponse({ error: { code: 'not_found' } }, 404));
  });
  return seen;
}

const reads = (seen: SeenRequest[]) =>
  seen.filter((request) => request.url.pathname === '/api/notifications/read');

function renderPage(url = '/notifications', auth = signedIn()) {
  return renderRoute({ path: '/notifications', url, element: <NotificationsPage />, auth });
}

describe('NotificationsPage', () => {
  it('sends visitors to sign in', async () => {
    stubNotifications({});
    const { router } = renderPage('/notifications', signedOut);
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows grouped notifications, marks the unread ones, and marks what it shows read', async () => {
    const seen = stubNotifications({
      all: () => ({ items: [likes, follow], nextCursor: null }),
    });
    renderPage();

    const liked = await screen.findByRole('link', {
      name: 'Ana, Bo and 12 others liked your post',
    });
    expect(liked.getAttribute('href')).toBe('/post/40');
    expect(screen.getByText('Bread recipe')).toBeTruthy();
    const followed = screen.getByRole('link', { name: 'Bo followed you' });
    expect(followed.getAttribute('href')).toBe('/bo');
    // Unread is said in words, not by colour alone: only the like is new.
    const items = screen.getAllByRole('listitem');
    expect(within(items[0] as HTMLElement).getByText('New')).toBeTruthy();
    expect(within(items[1] as HTMLElement).queryByText('New')).toBeNull();

    await waitFor(() => {
      expect(reads(seen)).toHaveLength(1);
    });
    expect(reads(seen)[0]?.body).toEqual({ upTo: '12' });
    expect(screen.getByRole('link', { name: 'Notification settings' }).getAttribute('href')).toBe(
      '/settings/notifications',
    );
  });

  it('reads the list again and marks it read when a newer notification arrives', async () => {
    let top: NotificationGroup = likes;
    const seen = stubNotifications({ all: () => ({ items: [top], nextCursor: null }) });
    const { queryClient } = renderPage();
    await waitFor(() => {
      expect(reads(seen)).toHaveLength(1);
    });

    top = makeNotificationGroup({ id: '13', kind: 'reply', unread: true, actors: [bo] });
    act(() => {
      queryClient.setQueryData(
        notificationKeys.unread('u1'),
        makeUnreadState({ unread: 1, newestId: '13' }),
      );
    });
    expect(await screen.findByRole('link', { name: 'Bo replied to your comment' })).toBeTruthy();
    await waitFor(() => {
      expect(reads(seen).map((request) => request.body)).toEqual([{ upTo: '12' }, { upTo: '13' }]);
    });
  });

  it('switches to Mentions with the keyboard and keeps the tab in the address', async () => {
    const user = userEvent.setup();
    stubNotifications({
      all: () => ({ items: [likes], nextCursor: null }),
      mentions: () => ({ items: [mention], nextCursor: null }),
    });
    const { router } = renderPage();
    await screen.findByRole('link', { name: /liked your post/ });

    const all = screen.getByRole('tab', { name: 'All' });
    all.focus();
    await user.keyboard('{ArrowRight}');
    expect(router.state.location.search).toBe('?tab=mentions');
    const mentions = screen.getByRole('tab', { name: 'Mentions' });
    expect(document.activeElement).toBe(mentions);
    expect(mentions.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('link', { name: 'Ana mentioned you in a post' })).toBeTruthy();
  });

  it('loads older notifications with the last group’s id', async () => {
    const user = userEvent.setup();
    const seen = stubNotifications({
      all: (cursor) =>
        cursor === '8'
          ? { items: [mention], nextCursor: null }
          : { items: [likes, follow], nextCursor: '8' },
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Ana mentioned you in a post' })).toBeTruthy();
    const lists = seen.filter((request) => request.url.pathname === '/api/notifications');
    expect(lists.at(-1)?.url.searchParams.get('cursor')).toBe('8');
    expect(screen.getByText('That’s everything.')).toBeTruthy();
  });

  it('says when there is nothing yet', async () => {
    stubNotifications({ all: () => ({ items: [], nextCursor: null }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No notifications yet' })).toBeTruthy();
  });

  it('offers Try again when the list cannot be read', async () => {
    const user = userEvent.setup();
    stubNotifications({ all: () => ({ items: [follow], nextCursor: null }), fail: 1 });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t load your notifications' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Bo followed you' })).toBeTruthy();
  });
});
