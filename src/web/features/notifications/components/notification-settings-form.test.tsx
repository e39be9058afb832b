// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, networkErrorMessage } from '@web/lib/api-client.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makeNotificationSettings } from '@web/test/notification-fixtures.js';
import { renderRoute, seenRequest, type SeenRequest } from '@web/test/render-route.js';
import { NotificationSettingsForm, settingsErrors } from './notification-settings-form.js';

afterEach(cleanup);

function renderForm(settings = makeNotificationSettings()) {
  return renderRoute({
    path: '/settings/notifications',
    url: '/settings/notifications',
    element: <NotificationSettingsForm initial={settings} />,
  });
}

const group = (name: string) => screen.getByRole('group', { name });
const box = (element: HTMLElement) => element as HTMLInputElement;

describe('NotificationSettingsForm', () => {
  it('shows each kind with its in-app switch and only the mail choices it allows', () => {
    renderForm(makeNotificationSettings({ like: { inApp: false, email: 'digest' } }));
    const mentions = group('Mentions');
    expect(box(within(mentions).getByRole('checkbox', { name: 'In the app' })).checked).toBe(true);
    expect(box(within(mentions).getByRole('radio', { name: 'As it happens' })).checked).toBe(true);

    const likes = group('Likes of your posts');
    expect(box(within(likes).getByRole('checkbox', { name: 'In the app' })).checked).toBe(false);
    expect(box(within(likes).getByRole('radio', { name: 'In a daily digest' })).checked).toBe(true);
    // Likes are never mailed as they happen (immediateEmailKinds).
    expect(within(likes).queryByRole('radio', { name: 'As it happens' })).toBeNull();
    expect(screen.getAllByRole('group', { name: /./ }).length).toBeGreaterThanOrEqual(6);
  });

  it('saves every kind at once and says so', async () => {
    const user = userEvent.setup();
    const seen: SeenRequest[] = [];
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      seen.push(request);
      return Promise.resolve(jsonResponse(request.body));
    });
    renderForm();
    await user.click(within(group('Mentions')).getByRole('radio', { name: 'Never' }));
    await user.click(within(group('New followers')).getByRole('checkbox', { name: 'In the app' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Your notification settings were saved.')).toBeTruthy();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('PUT');
    expect(seen[0]?.url.pathname).toBe('/api/notifications/settings');
    expect(seen[0]?.body).toEqual(
      makeNotificationSettings({
        mention: { inApp: true, email: 'never' },
        follow: { inApp: false, email: 'never' },
      }),
    );
  });

  it('puts a 400’s message next to the kind it names', async () => {
    const user = userEvent.setup();
    stubFetch(() =>
      Promise.resolve(
        jsonResponse(
          {
            error: {
              code: 'validation_failed',
              message: 'Some form fields need attention.',
              fields: { like: 'Only mentions, replies and comments can be mailed as they happen.' },
            },
          },
          400,
        ),
      ),
    );
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    const likes = group('Likes of your posts');
    const message = await within(likes).findByText(
      'Only mentions, replies and comments can be mailed as they happen.',
    );
    // The kind's group is described by its message, so a screen reader hears it on entering.
    expect(likes.getAttribute('aria-describedby')).toBe(message.id);
    await waitFor(() => {
      expect(document.activeElement).toBe(
        within(likes).getByRole('checkbox', { name: 'In the app' }),
      );
    });
    expect(screen.queryByText('Your notification settings were saved.')).toBeNull();
  });

  it('says what went wrong when the save fails otherwise', async () => {
    const user = userEvent.setup();
    stubFetch(() => Promise.reject(new TypeError('offline')));
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(networkErrorMessage)).toBeTruthy();
  });
});

describe('settingsErrors', () => {
  it('splits the fields the kinds show from the rest', () => {
    const error = new ApiError({
      status: 400,
      code: 'validation_failed',
      message: 'Some form fields need attention.',
      fields: { mention: 'Bad mention.', bogus: 'Not a kind of notification.' },
    });
    expect(settingsErrors(error)).toEqual({
      kinds: { mention: 'Bad mention.' },
      form: 'Not a kind of notification.',
    });
  });

  it('falls back to the message when no kind is named', () => {
    const error = new ApiError({
      status: 429,
      code: 'rate_limited',
      message: 'Too many attempts.',
    });
    expect(settingsErrors(error)).toEqual({ kinds: {}, form: 'Too many attempts.' });
    expect(settingsErrors(new Error('boom')).form).toBe('Something went wrong. Please try again.');
  });
});
