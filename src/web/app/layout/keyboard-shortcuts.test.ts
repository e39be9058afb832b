// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  hasOpenOverlay,
  isForeignKeyPress,
  isTypingTarget,
  sequenceTimeoutMs,
  ShortcutReader,
  shortcuts,
  type KeyPress,
} from './keyboard-shortcuts.js';

const press = (key: string, overrides: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...overrides,
});

function element(html: string): Element {
  document.body.innerHTML = html;
  const found = document.body.querySelector('[data-target]');
  if (!found) throw new Error('no [data-target] in the markup');
  return found;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('ShortcutReader', () => {
  it('reads the single-key shortcuts', () => {
    const reader = new ShortcutReader();
    expect(reader.read('n', 0)).toBe('compose');
    expect(reader.read('/', 10)).toBe('search');
    expect(reader.read('?', 20)).toBe('help');
  });

  it('reads g then h, n or p as the go-to shortcuts', () => {
    const reader = new ShortcutReader();
    expect(reader.read('g', 0)).toBeNull();
    expect(reader.read('h', 200)).toBe('home');
    expect(reader.read('g', 1_000)).toBeNull();
    expect(reader.read('n', 1_300)).toBe('notifications');
    expect(reader.read('g', 2_000)).toBeNull();
    expect(reader.read('p', 2_100)).toBe('profile');
  });

  it('lets the second key of a sequence come up to the timeout, and not after', () => {
    const reader = new ShortcutReader();
    reader.read('g', 0);
    expect(reader.isPending(sequenceTimeoutMs)).toBe(true);
    expect(reader.read('h', sequenceTimeoutMs)).toBe('home');
    reader.read('g', 5_000);
    expect(reader.isPending(5_000 + sequenceTimeoutMs + 1)).toBe(false);
    // Too late for "g n": the n is read on its own, as a new post.
    expect(reader.read('n', 5_000 + sequenceTimeoutMs + 1)).toBe('compose');
  });

  it('reads h after a timed-out g as nothing', () => {
    const reader = new ShortcutReader(500);
    reader.read('g', 0);
    expect(reader.read('h', 600)).toBeNull();
  });

  it('ends a sequence on any other key, which is then read on its own', () => {
    const reader = new ShortcutReader();
    reader.read('g', 0);
    expect(reader.read('x', 100)).toBeNull();
    expect(reader.read('h', 200)).toBeNull();
    reader.read('g', 300);
    expect(reader.read('?', 400)).toBe('help');
    expect(reader.isPending(400)).toBe(false);
  });

  it('starts again on a second g', () => {
    const reader = new ShortcutReader();
    reader.read('g', 0);
    expect(reader.read('g', 900)).toBeNull();
    expect(reader.read('p', 1_800)).toBe('profile');
  });

  it('forgets a started sequence on reset', () => {
    const reader = new ShortcutReader();
    reader.read('g', 0);
    reader.reset();
    expect(reader.read('h', 10)).toBeNull();
  });

  it('compares keys as typed: N and H are not shortcuts', () => {
    const reader = new ShortcutReader();
    expect(reader.read('N', 0)).toBeNull();
    reader.read('g', 10);
    expect(reader.read('H', 20)).toBeNull();
  });

  it('lists every shortcut once, each with a description', () => {
    const actions = shortcuts.map((shortcut) => shortcut.action);
    expect(new Set(actions).size).toBe(actions.length);
    expect(actions).toEqual(['compose', 'search', 'home', 'notifications', 'profile', 'help']);
    for (const shortcut of shortcuts) expect(shortcut.description).not.toBe('');
  });
});

describe('isForeignKeyPress', () => {
  it('leaves plain keys, and Shift (which ? needs), to the shortcuts', () => {
    expect(isForeignKeyPress(press('n'))).toBe(false);
    expect(isForeignKeyPress(press('?'))).toBe(false);
  });

  it('leaves chords with Ctrl, Meta or Alt, repeats, composition and handled keys alone', () => {
    expect(isForeignKeyPress(press('n', { ctrlKey: true }))).toBe(true);
    expect(isForeignKeyPress(press('n', { metaKey: true }))).toBe(true);
    expect(isForeignKeyPress(press('n', { altKey: true }))).toBe(true);
    expect(isForeignKeyPress(press('n', { repeat: true }))).toBe(true);
    expect(isForeignKeyPress(press('n', { isComposing: true }))).toBe(true);
    expect(isForeignKeyPress(press('n', { defaultPrevented: true }))).toBe(true);
  });
});

describe('isTypingTarget', () => {
  it('is true for text fields, text areas, selects and editable regions', () => {
    expect(isTypingTarget(element('<input data-target>'))).toBe(true);
    expect(isTypingTarget(element('<input type="search" data-target>'))).toBe(true);
    expect(isTypingTarget(element('<input type="email" data-target>'))).toBe(true);
    expect(isTypingTarget(element('<textarea data-target></textarea>'))).toBe(true);
    expect(isTypingTarget(element('<select data-target><option>a</option></select>'))).toBe(true);
    expect(isTypingTarget(element('<div contenteditable="true"><p data-target>x</p></div>'))).toBe(
      true,
    );
    expect(isTypingTarget(element('<div role="textbox" data-target></div>'))).toBe(true);
  });

  it('is false for buttons, links, check boxes and the page itself', () => {
    expect(isTypingTarget(element('<button data-target>Go</button>'))).toBe(false);
    expect(isTypingTarget(element('<a href="/x" data-target>x</a>'))).toBe(false);
    expect(isTypingTarget(element('<input type="checkbox" data-target>'))).toBe(false);
    expect(isTypingTarget(element('<div contenteditable="false"><p data-target>x</p></div>'))).toBe(
      false,
    );
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget(window)).toBe(false);
  });
});

describe('hasOpenOverlay', () => {
  it('is true while a dialog or menu is open', () => {
    document.body.innerHTML = '<dialog open>Hi</dialog>';
    expect(hasOpenOverlay(document)).toBe(true);
    document.body.innerHTML = '<div role="menu"></div>';
    expect(hasOpenOverlay(document)).toBe(true);
    document.body.innerHTML = '<div role="dialog" aria-modal="true"></div>';
    expect(hasOpenOverlay(document)).toBe(true);
  });

  it('is false for a closed dialog and a plain page', () => {
    document.body.innerHTML = '<dialog>Hi</dialog><main><p>Text</p></main>';
    expect(hasOpenOverlay(document)).toBe(false);
  });
});
