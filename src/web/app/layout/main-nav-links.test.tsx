// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserDocument } from '@shared/schemas/user.js';
import { notificationsTopic } from '@shared/realtime-protocol.js';
import type { SocketHandlers } from '@web/lib/realtime-client.js';
import { stubFetch, jsonResponse } from '@web/test/fetch-stub.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { currentPlace, MainNavLinks, notificationsLabel } from './main-nav-links.js';

/** The tab's one socket, driven by the test: the navigation follows the real realtime client over it. */
const socket = vi.hoisted(() => ({
  handlers: null as SocketHandlers | null,
  sent: [] as unknown[],
}));

vi.mock('@web/lib/realtime-client.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@web/lib/realtime-client.js')>();
  const protocol = await import('@shared/realtime.js');
  return {
    ...actual,
    realtimeClient: new actual.RealtimeClient({
      createSocket: (_url, handlers) => {
        socket.handlers = handlers;
        return {
          send: (data: string) => {
            socket.sent.push(JSON.parse(data));
          },
          close: () => undefined,
        };
      },
      loadProtocol: () => Promise.resolve(protocol),
      url: (path) => `ws://hearth.test${path}`,
      lingerMs: 0,
    }),
  };
});

const ada: UserDocument = makeUserDocument({ uid: 'ada1', username: 'Ada', active: true });

function renderNav(
  props: { user: UserDocument | null; canWrite?: boolean; onWrite?: () => void },
  path = '/tos',
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const writeButtonRef = createRef<HTMLButtonElement>();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  const view = render(
    <MainNavLinks
      user={props.user}
      canWrite={props.canWrite ?? false}
      onWrite={props.onWrite ?? (() => undefined)}
      onWriteIntent={() => undefined}
      writeButtonRef={writeButtonRef}
    />,
    { wrapper },
  );
  return { ...view, writeButtonRef, queryClient };
}

function answerUnread(unread: number) {
  return stubFetch((input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url === '/api/notifications/unread') {
      return Promise.resolve(jsonResponse({ unread, newestId: unread > 0 ? '5' : null }));
    }
    return Promise.resolve(jsonResponse({ error: { code: 'not_found', message: 'No.' } }, 404));
  });
}

const list = () => screen.getByRole('list');
const linkNames = () =>
  within(list())
    .getAllByRole('link')
    .map((link) => link.getAttribute('aria-label') ?? link.textContent);

afterEach(async () => {
  cleanup();
  // Let the unmounted navigation's topic go (it lingers 0 ms), so each test starts with a new socket.
  await new Promise((resolve) => setTimeout(resolve, 10));
  socket.handlers = null;
  socket.sent = [];
});

describe('MainNavLinks', () => {
  it('signed out: Home and Search only, no Write', () => {
    const fetch = answerUnread(0);
    renderNav({ user: null });
    expect(linkNames()).toEqual(['Home', 'Search']);
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/feed');
    expect(screen.getByRole('link', { name: 'Search' }).getAttribute('href')).toBe('/search');
    expect(screen.queryByRole('button', { name: 'Write' })).toBeNull();
    // Nobody is signed in: no unread count is asked for.
    expect(fetch).not.toHaveBeenCalled();
  });

  it('signed in: Home, Search, Notifications, Profile and Write', async () => {
    answerUnread(0);
    const onWrite = vi.fn();
    const { writeButtonRef } = renderNav({ user: ada, canWrite: true, onWrite });
    expect(linkNames()).toEqual(['Home', 'Search', 'Notifications', 'Profile']);
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe(
      '/notifications',
    );
    // spec §2: profiles are linked by the lowercase username.
    expect(screen.getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/ada');
    const write = screen.getByRole('button', { name: 'Write' });
    expect(writeButtonRef.current).toBe(write);
    expect(write.getAttribute('aria-haspopup')).toBe('dialog');
    expect(write.getAttribute('aria-keyshortcuts')).toBe('n');
    await userEvent.click(write);
    expect(onWrite).toHaveBeenCalledOnce();
  });

  it('an inactive account has no Write (spec §6)', () => {
    answerUnread(0);
    renderNav({ user: { ...ada, active: false }, canWrite: false });
    expect(linkNames()).toEqual(['Home', 'Search', 'Notifications', 'Profile']);
    expect(screen.queryByRole('button', { name: 'Write' })).toBeNull();
  });

  it('marks the current page with aria-current', () => {
    answerUnread(0);
    const { unmount } = renderNav({ user: ada, canWrite: true }, '/ada');
    expect(screen.getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    unmount();
    renderNav({ user: ada, canWrite: true }, '/');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBeNull();
  });

  it('shows the unread count in a badge and in the link’s name', async () => {
    const fetch = answerUnread(3);
    renderNav({ user: ada, canWrite: true });
    const link = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(within(link).getByText('3').getAttribute('aria-hidden')).toBe('true');
    expect(fetch).toHaveBeenCalledWith('/api/notifications/unread', expect.anything());
  });

  it('shows 99+ past 99', async () => {
    answerUnread(100);
    renderNav({ user: ada, canWrite: true });
    const link = await screen.findByRole('link', { name: 'Notifications, 99+ unread' });
    expect(within(link).getByText('99+')).toBeTruthy();
  });

  it('follows notifications/{uid}: a live change updates the badge', async () => {
    answerUnread(0);
    renderNav({ user: ada, canWrite: true });
    await vi.waitFor(() => {
      expect(socket.handlers).not.toBeNull();
    });
    act(() => {
      socket.handlers?.onOpen();
    });
    const topic = notificationsTopic(ada.uid);
    expect(socket.sent).toContainEqual({ type: 'subscribe', topic });
    expect(screen.getByRole('link', { name: 'Notifications' })).toBeTruthy();
    act(() => {
      socket.handlers?.onMessage(
        JSON.stringify({ type: 'doc', topic, data: { unread: 4, newestId: '12' } }),
      );
    });
    // The query cache tells its screens on the next tick.
    expect(await screen.findByRole('link', { name: 'Notifications, 4 unread' })).toBeTruthy();
    act(() => {
      socket.handlers?.onMessage(
        JSON.stringify({ type: 'doc', topic, data: { unread: 0, newestId: '12' } }),
      );
    });
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByText('4')).toBeNull();
  });

  it('shows no badge while the count cannot be read', async () => {
    const fetch = stubFetch(() =>
      Promise.resolve(jsonResponse({ error: { code: 'not_found', message: 'No.' } }, 404)),
    );
    renderNav({ user: ada, canWrite: true });
    await vi.waitFor(() => {
      expect(fetch).toHaveBeenCalled();
    });
    expect(screen.getByRole('link', { name: 'Notifications' })).toBeTruthy();
  });
});

describe('currentPlace', () => {
  const user = { uid: 'x9', username: 'Ada' };

  it('knows the main places', () => {
    expect(currentPlace('/', user)).toBe('home');
    expect(currentPlace('/feed', user)).toBe('home');
    expect(currentPlace('/feed/', user)).toBe('home');
    expect(currentPlace('/search', user)).toBe('search');
    expect(currentPlace('/notifications', user)).toBe('notifications');
    expect(currentPlace('/ada', user)).toBe('profile');
    expect(currentPlace('/ADA', user)).toBe('profile');
  });

  it('knows a profile without a username by its uid', () => {
    expect(currentPlace('/user/x9', { uid: 'x9', username: null })).toBe('profile');
  });

  it('is null elsewhere, and for someone else’s profile', () => {
    expect(currentPlace('/tos', user)).toBeNull();
    expect(currentPlace('/bob', user)).toBeNull();
    expect(currentPlace('/ada/edit-profile', user)).toBeNull();
    expect(currentPlace('/ada', null)).toBeNull();
  });
});

describe('notificationsLabel', () => {
  it('reads the count with the name', () => {
    expect(notificationsLabel(0)).toBe('Notifications');
    expect(notificationsLabel(3)).toBe('Notifications, 3 unread');
    expect(notificationsLabel(250)).toBe('Notifications, 99+ unread');
  });
});
