// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { renderRoute, seenRequest, type SeenRequest } from '@web/test/render-route.js';
import { reportErrors, ReportDialog } from './report-dialog.js';

beforeEach(() => {
  // jsdom has no modal dialogs: open and close are enough here.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(cleanup);

const rules = {
  rules: [
    { id: '11', text: 'Be kind', description: 'No insults.' },
    { id: '12', text: 'No spoilers', description: null },
  ],
  max: 20,
};

const report = {
  id: '90',
  targetKind: 'post',
  targetId: '7',
  excerpt: 'Buy now',
  reason: 'rule',
  ruleId: '12',
  comment: null,
  status: 'open',
  outcome: null,
  createdAt: '2025-05-01T12:00:00.000Z',
  resolvedAt: null,
};

/** Answers the rules list, and the report with `answer`; records every request. */
function stubServer(answer: () => Response) {
  const seen: SeenRequest[] = [];
  stubFetch((input, init) => {
    const request = seenRequest(input, init);
    seen.push(request);
    if (request.url.pathname === '/api/instance/rules') return Promise.resolve(jsonResponse(rules));
    return Promise.resolve(answer());
  });
  return seen;
}

function renderDialog(onClose = vi.fn()) {
  renderRoute({
    path: '/post/:id',
    url: '/post/7',
    element: (
      <ReportDialog target={{ kind: 'post', id: '7', authorName: 'Bo Baker' }} onClose={onClose} />
    ),
  });
  return onClose;
}

const dialog = () => screen.getByRole('dialog', { name: 'Report this post' });
const reports = (seen: SeenRequest[]) => seen.filter((r) => r.url.pathname === '/api/reports');

describe('reportErrors', () => {
  it('asks for a reason, a rule with "breaks a rule", and a bounded comment', () => {
    expect(reportErrors(null, null, '')).toEqual({ reason: 'Choose a reason.' });
    expect(reportErrors('rule', null, '')).toEqual({ ruleId: 'Choose which rule.' });
    expect(reportErrors('spam', null, 'x'.repeat(1_001)).comment).toBe(
      'Use at most 1000 characters.',
    );
    expect(reportErrors('other', null, 'fine')).toEqual({});
  });
});

describe('ReportDialog', () => {
  it('refuses to send without a reason, and says so by the choices', async () => {
    const user = userEvent.setup();
    const seen = stubServer(() => jsonResponse(report, 201));
    renderDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));
    const reasons = within(dialog()).getByRole('group', { name: 'Why are you reporting it?' });
    expect(within(reasons).getByText('Choose a reason.')).toBeTruthy();
    expect(reasons.getAttribute('aria-describedby')).toBeTruthy();
    // Focus goes to the choices that need an answer.
    expect(document.activeElement).toBe(within(reasons).getByRole('radio', { name: /Spam/ }));
    expect(reports(seen)).toHaveLength(0);
  });

  it('asks which rule when the reason is a rule, and sends the rule chosen', async () => {
    const user = userEvent.setup();
    const seen = stubServer(() => jsonResponse(report, 201));
    renderDialog();
    await user.click(
      await within(dialog()).findByRole('radio', { name: /Breaks one of the instance’s rules/ }),
    );
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));
    const which = within(dialog()).getByRole('group', { name: 'Which rule does it break?' });
    expect(within(which).getByText('Choose which rule.')).toBeTruthy();
    expect(reports(seen)).toHaveLength(0);

    await user.click(within(which).getByRole('radio', { name: /No spoilers/ }));
    await user.type(within(dialog()).getByLabelText(/Anything the moderators/), 'Ruins the film');
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));

    expect(
      await screen.findByText(
        'Thanks — the moderators will look at it; you’ll be notified of the outcome.',
      ),
    ).toBeTruthy();
    expect(reports(seen)).toHaveLength(1);
    expect(reports(seen)[0]?.method).toBe('POST');
    expect(reports(seen)[0]?.body).toEqual({
      targetKind: 'post',
      targetId: '7',
      reason: 'rule',
      ruleId: '12',
      comment: 'Ruins the film',
    });
  });

  it('sends no rule for other reasons and no comment when none was written', async () => {
    const user = userEvent.setup();
    const seen = stubServer(() => jsonResponse({ ...report, reason: 'spam', ruleId: null }, 201));
    renderDialog();
    await user.click(within(dialog()).getByRole('radio', { name: /Spam/ }));
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));
    await screen.findByRole('dialog', { name: 'Report sent' });
    expect(reports(seen)[0]?.body).toEqual({ targetKind: 'post', targetId: '7', reason: 'spam' });
  });

  it('says so in the dialog when the same thing was already reported (409)', async () => {
    const user = userEvent.setup();
    stubServer(() =>
      jsonResponse({ error: { code: 'conflict', message: 'Already reported.' } }, 409),
    );
    const onClose = renderDialog();
    await user.click(within(dialog()).getByRole('radio', { name: /Harassment/ }));
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));
    expect(
      await within(dialog()).findByText(
        'You have already reported this post. The moderators will look at your report.',
      ),
    ).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows other failures with the server’s message and keeps the choices', async () => {
    const user = userEvent.setup();
    stubServer(() =>
      jsonResponse({ error: { code: 'not_found', message: 'That post is gone.' } }, 404),
    );
    renderDialog();
    await user.click(within(dialog()).getByRole('radio', { name: /Illegal content/ }));
    await user.click(within(dialog()).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog()).findByText('That post is gone.')).toBeTruthy();
    expect(
      within(dialog()).getByRole<HTMLInputElement>('radio', { name: /Illegal content/ }).checked,
    ).toBe(true);
  });

  it('offers no rule reason when the instance has no rules', async () => {
    stubFetch(() => Promise.resolve(jsonResponse({ rules: [], max: 20 })));
    renderDialog();
    await waitFor(() => {
      expect(within(dialog()).getAllByRole('radio')).toHaveLength(4);
    });
    expect(within(dialog()).queryByRole('radio', { name: /instance’s rules/ })).toBeNull();
  });
});
