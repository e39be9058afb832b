// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShortcutAction } from './keyboard-shortcuts.js';
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.js';

function Page({ run }: { run: (action: ShortcutAction) => boolean }) {
  useKeyboardShortcuts(run);
  return (
    <main>
      <button type="button">A button</button>
      <label>
        Name <input />
      </label>
      <label>
        Text <textarea />
      </label>
    </main>
  );
}

function setup(answer = true) {
  const run = vi.fn<(action: ShortcutAction) => boolean>(() => answer);
  render(<Page run={run} />);
  return { run, user: userEvent.setup() };
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('useKeyboardShortcuts', () => {
  it('runs n, / and ? pressed on the page', async () => {
    const { run, user } = setup();
    await user.keyboard('n');
    await user.keyboard('/');
    await user.keyboard('?');
    expect(run.mock.calls.map(([action]) => action)).toEqual(['compose', 'search', 'help']);
  });

  it('runs g h, g n and g p', async () => {
    const { run, user } = setup();
    await user.keyboard('gh');
    await user.keyboard('gn');
    await user.keyboard('gp');
    expect(run.mock.calls.map(([action]) => action)).toEqual(['home', 'notifications', 'profile']);
  });

  it('also works while a button has focus', async () => {
    const { run, user } = setup();
    screen.getByRole('button', { name: 'A button' }).focus();
    await user.keyboard('n');
    expect(run).toHaveBeenCalledWith('compose');
  });

  it('never fires while typing in a field, and the letters are typed', async () => {
    const { run, user } = setup();
    const input = screen.getByRole('textbox', { name: 'Name' });
    await user.click(input);
    await user.keyboard('n/?gh');
    expect(input).toHaveProperty('value', 'n/?gh');
    const text = screen.getByRole('textbox', { name: 'Text' });
    await user.click(text);
    await user.keyboard('gn');
    expect(text).toHaveProperty('value', 'gn');
    expect(run).not.toHaveBeenCalled();
  });

  it('does not finish a g sequence that was started before focus went into a field', async () => {
    const { run, user } = setup();
    await user.keyboard('g');
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.keyboard('h');
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('h');
    expect(run).not.toHaveBeenCalled();
  });

  it('never fires with Ctrl, Alt or Meta held', async () => {
    const { run, user } = setup();
    await user.keyboard('{Control>}n{/Control}');
    await user.keyboard('{Meta>}n{/Meta}');
    await user.keyboard('{Alt>}n{/Alt}');
    expect(run).not.toHaveBeenCalled();
  });

  it('never fires while a dialog is open', async () => {
    const { run, user } = setup();
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.append(dialog);
    await user.keyboard('n?');
    expect(run).not.toHaveBeenCalled();
    dialog.remove();
    await user.keyboard('n');
    expect(run).toHaveBeenCalledWith('compose');
  });

  it('keeps the key from the page only when the shortcut ran', () => {
    const { run } = setup(false);
    const refused = new KeyboardEvent('keydown', { key: 'n', bubbles: true, cancelable: true });
    document.body.dispatchEvent(refused);
    expect(run).toHaveBeenCalledWith('compose');
    expect(refused.defaultPrevented).toBe(false);
    run.mockReturnValue(true);
    const taken = new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true });
    document.body.dispatchEvent(taken);
    expect(taken.defaultPrevented).toBe(true);
  });

  it('stops listening when unmounted', async () => {
    const { run, user } = setup();
    cleanup();
    await user.keyboard('n');
    expect(run).not.toHaveBeenCalled();
  });
});
