// @vitest-environment jsdom
import { useState } from 'react';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { draftKey } from '@web/lib/drafts.js';
import { draftSaveDelayMs } from '@web/lib/use-draft.js';
import { renderRoute, signedIn } from '@web/test/render-route.js';
import { CommentForm, type MentionRequest } from './comment-form.js';

const account = 'u1';
const target = 'comment:p1';

beforeEach(() => {
  localStorage.clear();
  // jsdom has no modal dialogs: open and close are enough for the leave prompt's ConfirmDialog.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(cleanup);

const storedBody = () => {
  const raw = localStorage.getItem(draftKey(account, target));
  return raw === null ? null : (JSON.parse(raw) as { v: { body: string } }).v.body;
};

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

function renderForm(onSave: (body: string) => Promise<void> = () => Promise.resolve()) {
  const save = vi.fn(onSave);
  const view = renderRoute({
    path: '/post/:postId',
    url: '/post/p1',
    auth: signedIn(),
    element: (
      <CommentForm
        label="Write a comment"
        submitLabel="Comment"
        busyLabel="Commenting…"
        savedMessage="Comment posted."
        draft={{ account, target }}
        onSave={save}
      />
    ),
  });
  const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' });
  return { ...view, field, save };
}

describe('CommentForm', () => {
  it('sends with Ctrl+Enter and with ⌘+Enter, and says so on the button', async () => {
    const { field, save } = renderForm();
    const user = userEvent.setup();
    await user.type(field, 'First');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => {
      expect(save).toHaveBeenCalledWith('First');
    });
    expect(await screen.findByText('Comment posted.')).toBeTruthy();
    expect(field.value).toBe('');
    await user.type(field, 'Second');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() => {
      expect(save).toHaveBeenLastCalledWith('Second');
    });
    const button = screen.getByRole('button', { name: 'Comment' });
    expect(button.getAttribute('aria-keyshortcuts')).toBe('Control+Enter Meta+Enter');
    expect(button.getAttribute('title')).toMatch(/^Comment \((Ctrl|⌘)\+Enter\)$/);
  });

  it('keeps a plain Enter as a new line', async () => {
    const { field, save } = renderForm();
    const user = userEvent.setup();
    await user.type(field, 'a{Enter}b');
    expect(field.value).toBe('a\nb');
    expect(save).not.toHaveBeenCalled();
  });

  it('keeps what is typed as a draft once typing pauses, and offers it back', async () => {
    const first = renderForm();
    const user = userEvent.setup();
    await user.type(first.field, 'Unsent words');
    expect(storedBody()).toBeNull();
    await pause(draftSaveDelayMs + 100);
    expect(storedBody()).toBe('Unsent words');
    first.unmount();

    const second = renderForm();
    expect(second.field.value).toBe('Unsent words');
    const note = screen.getByText(/Draft restored \(saved on this device just now\)/);
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Discard draft' })).toBeTruthy();
  });

  it('keeps the last words when the form goes before typing pauses', async () => {
    const first = renderForm();
    const user = userEvent.setup();
    await user.type(first.field, 'Quick');
    first.unmount();
    expect(storedBody()).toBe('Quick');
  });

  it('discards a restored draft on request', async () => {
    localStorage.setItem(
      draftKey(account, target),
      JSON.stringify({ v: { body: 'Old draft' }, t: Date.now() - 60_000 }),
    );
    const { field } = renderForm();
    expect(field.value).toBe('Old draft');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(field.value).toBe('');
    expect(storedBody()).toBeNull();
    expect(screen.queryByText(/Draft restored/)).toBeNull();
    expect(document.activeElement).toBe(field);
  });

  it('forgets the draft once the comment is sent, and keeps it when sending fails', async () => {
    let fail = true;
    const { field } = renderForm(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve(),
    );
    const user = userEvent.setup();
    await user.type(field, 'Try me');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await screen.findByRole('alert');
    await pause(draftSaveDelayMs + 100);
    expect(storedBody()).toBe('Try me');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    await screen.findByText('Comment posted.');
    await pause(draftSaveDelayMs + 100);
    expect(storedBody()).toBeNull();
  });

  it('greets the next person only once the reply being sent has left the field', async () => {
    const sends: (() => void)[] = [];
    function ReplyBox() {
      const [mention, setMention] = useState<MentionRequest>({ username: 'ada', seq: 1 });
      return (
        <>
          <button
            type="button"
            onClick={() => {
              setMention((current) => ({ username: 'bo', seq: current.seq + 1 }));
            }}
          >
            Reply to Bo
          </button>
          <CommentForm
            label="Write a reply"
            submitLabel="Post reply"
            busyLabel="Posting reply…"
            mention={mention}
            draft={{ account, target: 'reply:c1' }}
            onSave={() =>
              new Promise<void>((resolve) => {
                sends.push(resolve);
              })
            }
          />
        </>
      );
    }
    renderRoute({
      path: '/post/:postId',
      url: '/post/p1',
      auth: signedIn(),
      element: <ReplyBox />,
    });
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a reply' });
    expect(field.value).toBe('@ada ');
    expect(document.activeElement).toBe(field);

    const user = userEvent.setup();
    await user.type(field, 'thanks!');
    await user.click(screen.getByRole('button', { name: 'Post reply' }));
    expect(sends).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Reply to Bo' }));
    // Still the text on its way, untouched by the request.
    expect(field.value).toBe('@ada thanks!');

    await act(async () => {
      sends[0]?.();
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(field.value).toBe('@bo ');
    });
    expect(document.activeElement).toBe(field);
    await pause(draftSaveDelayMs + 100);
    expect(localStorage.getItem(draftKey(account, 'reply:c1'))).toBeNull();
  });

  it('asks before leaving the page with unsent text, and stays on Cancel', async () => {
    const { field, router } = renderForm();
    const user = userEvent.setup();
    await act(() => router.navigate('/post/p1?sort=new'));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(field, 'Half a thought');
    await act(() => router.navigate('/elsewhere'));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(dialog.textContent).toContain('Your draft is saved on this device.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/post/p1');

    await act(() => router.navigate('/elsewhere'));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Another page')).toBeTruthy();
    expect(storedBody()).toBe('Half a thought');
  });

  it('lets the page go without asking when nothing is typed', async () => {
    const { router } = renderForm();
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByText('Another page')).toBeTruthy();
  });
});
