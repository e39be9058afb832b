// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makeUnsubscribeState } from '@web/test/notification-fixtures.js';
import { renderRoute, seenRequest, type SeenRequest } from '@web/test/render-route.js';
import { UnsubscribePanel } from './unsubscribe-panel.js';

afterEach(cleanup);

const token = 'a'.repeat(40);
const path = `/api/unsubscribe/${token}`;

/** Answers GET and POST of the link with the given responses, in order, and records each request. */
function stubLink(answers: { GET?: Response[]; POST?: Response[] }) {
  const seen: SeenRequest[] = [];
  stubFetch((input, init) => {
    const request = seenRequest(input, init);
    seen.push(request);
    const queue = request.method === 'POST' ? answers.POST : answers.GET;
    const next = request.url.pathname === path ? queue?.shift() : undefined;
    return Promise.resolve(next ?? jsonResponse({ error: { code: 'not_found' } }, 404));
  });
  return seen;
}

const apiError = (status: number, code: string, message: string) =>
  jsonResponse({ error: { code, message } }, status);

function renderPanel() {
  return renderRoute({
    path: '/unsubscribe/:token',
    url: `/unsubscribe/${token}`,
    element: <UnsubscribePanel token={token} />,
  });
}

describe('UnsubscribePanel', () => {
  it('asks first, changes nothing on reading, and unsubscribes on the button', async () => {
    const user = userEvent.setup();
    const state = makeUnsubscribeState();
    const seen = stubLink({
      GET: [jsonResponse(state)],
      POST: [jsonResponse({ ...state, used: true })],
    });
    renderPanel();

    expect(await screen.findByText('Stop emails about mentions to a***@example.com?')).toBeTruthy();
    expect(seen.map((request) => request.method)).toEqual(['GET']);

    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText(/You won’t get these emails any more\./)).toBeTruthy();
    expect(seen.map((request) => request.method)).toEqual(['GET', 'POST']);
    const settings = screen.getByRole('link', { name: 'Change all your email settings' });
    expect(settings.getAttribute('href')).toBe('/settings/notifications');
  });

  it('names the daily digest when the link is for it', async () => {
    stubLink({ GET: [jsonResponse(makeUnsubscribeState({ kind: null }))] });
    renderPanel();
    expect(
      await screen.findByText('Stop the daily digest email to a***@example.com?'),
    ).toBeTruthy();
  });

  it('says a used link was already used, without a button', async () => {
    stubLink({ GET: [jsonResponse(makeUnsubscribeState({ used: true, kind: 'reply' }))] });
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'This link was already used' })).toBeTruthy();
    expect(
      screen.getByText(
        /Emails about replies to your comments to a\*\*\*@example\.com are already off\./,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('says so when the link was used in the meantime (409)', async () => {
    const user = userEvent.setup();
    stubLink({
      GET: [jsonResponse(makeUnsubscribeState())],
      POST: [apiError(409, 'conflict', 'This link was already used.')],
    });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'This link was already used' })).toBeTruthy();
  });

  it('says an unknown link does not work (404)', async () => {
    stubLink({ GET: [apiError(404, 'not_found', 'No such link.')] });
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'This link doesn’t work' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers Try again when the link cannot be read, and reads it again', async () => {
    const user = userEvent.setup();
    stubLink({
      GET: [
        apiError(500, 'internal', 'Something went wrong on our side.'),
        jsonResponse(makeUnsubscribeState()),
      ],
    });
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'We couldn’t read this link' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Stop emails about mentions to a***@example.com?')).toBeTruthy();
  });

  it('keeps the button and says why when unsubscribing fails', async () => {
    const user = userEvent.setup();
    stubLink({
      GET: [jsonResponse(makeUnsubscribeState())],
      POST: [apiError(503, 'unavailable', 'The service is briefly unavailable.')],
    });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('The service is briefly unavailable.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeTruthy();
  });
});
