// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InstanceRule, InstanceSettings } from '@shared/schemas/instance.js';
import type { Role } from '@shared/roles.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { renderRoute, seenRequest, signedIn } from '@web/test/render-route.js';
import { AdminInstancePage } from './admin-instance-page.js';

beforeEach(() => {
  // jsdom has no modal dialogs: open and close are enough for the delete confirmation.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(cleanup);

/** A small stand-in for the server's rules and settings endpoints. */
function fakeServer(initial: InstanceRule[] = []) {
  const state = {
    rules: [...initial],
    settings: {
      registrationMode: 'open',
      signupQuestion: null,
      publicModerationLog: false,
    } as InstanceSettings,
    requests: [] as string[],
    nextId: 100,
  };
  const answer = () => jsonResponse({ rules: state.rules, max: 20 });
  stubFetch((input, init) => {
    const request = seenRequest(input, init);
    const path = request.url.pathname;
    state.requests.push(`${request.method} ${path}`);
    const body = request.body as Record<string, unknown>;
    if (path === '/api/instance/rules') return Promise.resolve(answer());
    if (path === '/api/admin/instance') {
      if (request.method === 'PATCH') state.settings = { ...state.settings, ...body };
      return Promise.resolve(jsonResponse(state.settings));
    }
    if (path === '/api/admin/instance/rules' && request.method === 'POST') {
      state.nextId += 1;
      state.rules.push({
        id: String(state.nextId),
        text: String(body.text).trim(),
        description: (body.description as string | null) ?? null,
      });
      return Promise.resolve(jsonResponse({ rules: state.rules, max: 20 }, 201));
    }
    if (path === '/api/admin/instance/rules/order') {
      const ids = body.ids as string[];
      state.rules = ids.map((id) => state.rules.find((rule) => rule.id === id) as InstanceRule);
      return Promise.resolve(answer());
    }
    const match = /^\/api\/admin\/instance\/rules\/(\d+)$/.exec(path);
    if (match) {
      const id = match[1];
      if (request.method === 'DELETE') {
        state.rules = state.rules.filter((rule) => rule.id !== id);
      } else {
        state.rules = state.rules.map((rule) =>
          rule.id === id
            ? {
                id: rule.id,
                text: String(body.text).trim(),
                description: (body.description as string | null) ?? null,
              }
            : rule,
        );
      }
      return Promise.resolve(answer());
    }
    return Promise.resolve(jsonResponse({ error: { code: 'not_found', message: 'No.' } }, 404));
  });
  return state;
}

function renderAs(role: Role) {
  const auth = signedIn();
  if (!auth.user) throw new Error('signed in expected');
  return renderRoute({
    path: '/admin/instance',
    url: '/admin/instance',
    element: <AdminInstancePage />,
    auth: { ...auth, user: { ...auth.user, role } },
  });
}

describe('the rules editor', () => {
  it('adds, edits, reorders from the keyboard and deletes after asking', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderAs('admin');

    expect(await screen.findByText(/No rules yet/)).toBeTruthy();
    expect(screen.getByText('0 of 20 rules')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /New rule/ }), 'Be kind');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Rule added.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /New rule/ }), 'No spam');
    await user.type(screen.getByRole('textbox', { name: /Explanation/ }), 'Nor scams.');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await screen.findByText('2 of 20 rules');
    expect(server.rules.map((rule) => rule.text)).toEqual(['Be kind', 'No spam']);
    // The form is ready for the next rule.
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /New rule/ }).value).toBe('');

    // Move the second rule up with the keyboard; focus stays with it.
    const moveUp = screen.getByRole('button', { name: 'Move up rule 2' });
    moveUp.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(server.rules.map((rule) => rule.text)).toEqual(['No spam', 'Be kind']);
    });
    await screen.findByText('Moved rule 2 to position 1.');
    await waitFor(() => {
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Move down rule 1');
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move up rule 1' }).disabled).toBe(
      true,
    );

    // Edit in place.
    await user.click(screen.getByRole('button', { name: 'Edit rule 2' }));
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: /^Rule/ });
    expect(field.value).toBe('Be kind');
    await user.clear(field);
    await user.type(field, 'Be kind to everyone');
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Be kind to everyone')).toBeTruthy();
    expect(server.rules[1]?.text).toBe('Be kind to everyone');

    // Delete asks first; Cancel keeps it.
    await user.click(screen.getByRole('button', { name: 'Delete rule 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this rule?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.rules).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Delete rule 1' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete rule' }),
    );
    expect(await screen.findByText('Rule deleted.')).toBeTruthy();
    expect(server.rules.map((rule) => rule.text)).toEqual(['Be kind to everyone']);
    expect(server.requests).toContain('PUT /api/admin/instance/rules/order');
  });

  it('refuses an empty rule without asking the server', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Write the rule.')).toBeTruthy();
    expect(server.requests.filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('shows moderators the rules and settings without a way to change them', async () => {
    fakeServer([{ id: '1', text: 'Be kind', description: 'Always.' }]);
    renderAs('moderator');
    expect(await screen.findByText('Be kind')).toBeTruthy();
    expect(await screen.findByText('Only administrators can change these settings.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(screen.getByRole('radio', { name: 'Open' }).matches(':disabled')).toBe(true);
  });

  it('saves the settings and says so', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderAs('admin');
    await user.click(await screen.findByRole('radio', { name: 'Approval' }));
    await user.type(screen.getByRole('textbox', { name: /Sign-up question/ }), 'Why here?');
    await user.click(screen.getByRole('checkbox', { name: 'Publish the moderation log' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(server.settings).toEqual({
      registrationMode: 'approval',
      signupQuestion: 'Why here?',
      publicModerationLog: true,
    });
  });
});
