// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MySuspension } from '@shared/schemas/report.js';
import type { AuthState } from '@web/features/auth/auth-state.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import {
  renderRoute,
  seenRequest,
  signedIn,
  signedOut,
  type SeenRequest,
} from '@web/test/render-route.js';
import { makeMe, makeUserDocument } from '@web/test/user-fixtures.js';
import { SuspensionPage } from './suspension-page.js';

afterEach(cleanup);

const suspended = () => ({
  ...signedIn(),
  user: makeUserDocument({ suspended: true }),
  me: makeMe({ suspended: true }),
});

const suspension = (appeal: NonNullable<MySuspension['suspension']>['appeal']): MySuspension => ({
  suspension: {
    reason: 'Repeated spam',
    since: '2025-05-01T12:00:00.000Z',
    until: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString(),
    appeal,
    mayAppeal: appeal === null,
  },
});

function renderPage(auth: AuthState = suspended()) {
  return renderRoute({
    path: '/settings/suspension',
    url: '/settings/suspension',
    element: <SuspensionPage />,
    auth,
  });
}

describe('SuspensionPage', () => {
  it('tells an account in good standing so', async () => {
    stubFetch(() => Promise.resolve(jsonResponse({ suspension: null })));
    renderPage(signedIn());
    expect(
      await screen.findByRole('heading', { name: 'Your account is in good standing' }),
    ).toBeTruthy();
  });

  it('asks visitors to sign in', () => {
    renderPage(signedOut);
    expect(
      screen.getByRole('heading', { name: 'Sign in to see your account’s standing' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('says why and until when, and takes one appeal', async () => {
    const user = userEvent.setup();
    const seen: SeenRequest[] = [];
    let appealed = false;
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      seen.push(request);
      if (request.method === 'POST') {
        appealed = true;
        return Promise.resolve(
          jsonResponse(
            {
              id: '3',
              text: 'Sorry',
              status: 'pending',
              createdAt: new Date().toISOString(),
              decidedAt: null,
              decisionReason: null,
            },
            201,
          ),
        );
      }
      return Promise.resolve(
        jsonResponse(
          suspension(
            appealed
              ? {
                  id: '3',
                  text: 'Sorry',
                  status: 'pending',
                  createdAt: new Date().toISOString(),
                  decidedAt: null,
                  decisionReason: null,
                }
              : null,
          ),
        ),
      );
    });
    renderPage();
    expect(await screen.findByText('Repeated spam')).toBeTruthy();
    expect(screen.getByText(/in 3 days|in 72 hours/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(screen.getByText('Write your appeal.')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('Your appeal'), 'Sorry');
    await user.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(await screen.findByText('Appeal sent')).toBeTruthy();
    expect(seen.find((r) => r.method === 'POST')?.body).toEqual({ text: 'Sorry' });
    expect(screen.queryByRole('button', { name: 'Send appeal' })).toBeNull();
  });

  it('shows a rejected appeal with its reason', async () => {
    stubFetch(() =>
      Promise.resolve(
        jsonResponse(
          suspension({
            id: '3',
            text: 'Sorry',
            status: 'rejected',
            createdAt: '2025-05-01T13:00:00.000Z',
            decidedAt: '2025-05-01T14:00:00.000Z',
            decisionReason: 'Not the first time',
          }),
        ),
      ),
    );
    renderPage();
    expect(await screen.findByText('Your appeal was rejected.')).toBeTruthy();
    expect(screen.getByText('Reason: Not the first time')).toBeTruthy();
  });
});
