// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makeNotificationSettings } from '@web/test/notification-fixtures.js';
import { renderRoute, seenRequest, signedIn, signedOut } from '@web/test/render-route.js';
import { NotificationSettingsPage } from './notification-settings-page.js';

afterEach(cleanup);

function renderPage(auth = signedIn()) {
  return renderRoute({
    path: '/settings/notifications',
    url: '/settings/notifications',
    element: <NotificationSettingsPage />,
    auth,
  });
}

describe('NotificationSettingsPage', () => {
  it('sends visitors to sign in', async () => {
    stubFetch(() => Promise.resolve(jsonResponse({ error: { code: 'unauthenticated' } }, 401)));
    const { router } = renderPage(signedOut);
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('reads the settings, saves a change and keeps the notice on screen', async () => {
    const user = userEvent.setup();
    let stored = makeNotificationSettings();
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      if (request.url.pathname !== '/api/notifications/settings') {
        return Promise.resolve(jsonResponse({ error: { code: 'not_found' } }, 404));
      }
      if (request.method === 'PUT') stored = request.body as typeof stored;
      return Promise.resolve(jsonResponse(stored));
    });
    renderPage();

    const replies = await screen.findByRole('group', { name: 'Replies to your comments' });
    await user.click(within(replies).getByRole('radio', { name: 'In a daily digest' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Your notification settings were saved.')).toBeTruthy();
    expect(stored.reply).toEqual({ inApp: true, email: 'digest' });
    const saved = within(screen.getByRole('group', { name: 'Replies to your comments' }));
    const digest = saved.getByRole<HTMLInputElement>('radio', { name: 'In a daily digest' });
    expect(digest.checked).toBe(true);
  });

  it('offers Try again when the settings cannot be read', async () => {
    const user = userEvent.setup();
    let calls = 0;
    stubFetch(() => {
      calls += 1;
      return Promise.resolve(
        calls === 1
          ? jsonResponse({ error: { code: 'internal', message: 'Down.' } }, 500)
          : jsonResponse(makeNotificationSettings()),
      );
    });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t load your notification settings' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: 'Mentions' })).toBeTruthy();
  });
});
