import { describe, expect, it } from 'vitest';
import type { KeyboardEvent } from 'react';
import { isSubmitShortcut, submitOnShortcut } from './submit-shortcut.js';

const press = (
  key: string,
  keys: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...keys,
});

describe('isSubmitShortcut', () => {
  it('is Ctrl+Enter or ⌘+Enter', () => {
    expect(isSubmitShortcut(press('Enter', { ctrlKey: true }))).toBe(true);
    expect(isSubmitShortcut(press('Enter', { metaKey: true }))).toBe(true);
  });

  it('is not Enter alone, with Shift or Alt, another key, or Enter while composing text', () => {
    expect(isSubmitShortcut(press('Enter'))).toBe(false);
    expect(isSubmitShortcut(press('Enter', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSubmitShortcut(press('Enter', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSubmitShortcut(press('a', { ctrlKey: true }))).toBe(false);
    expect(
      isSubmitShortcut({
        ...press('Enter', { ctrlKey: true }),
        nativeEvent: { isComposing: true },
      }),
    ).toBe(false);
  });
});

describe('submitOnShortcut', () => {
  /** A keydown on a textarea inside a form, recording what the handler did. */
  function keydown(key: string, keys: Parameters<typeof press>[1] = {}) {
    const done = { prevented: false, submitted: 0 };
    const form = {
      requestSubmit: () => {
        done.submitted += 1;
      },
    };
    const event = {
      ...press(key, keys),
      preventDefault: () => {
        done.prevented = true;
      },
      currentTarget: { form },
    } as unknown as KeyboardEvent<HTMLTextAreaElement>;
    return { event, done };
  }

  it('sends the form on Ctrl+Enter, without typing a new line', () => {
    const { event, done } = keydown('Enter', { ctrlKey: true });
    expect(submitOnShortcut(event)).toBe(true);
    expect(done).toEqual({ prevented: true, submitted: 1 });
  });

  it('swallows the shortcut while the form is sending, so nothing goes twice', () => {
    const { event, done } = keydown('Enter', { metaKey: true });
    expect(submitOnShortcut(event, true)).toBe(true);
    expect(done).toEqual({ prevented: true, submitted: 0 });
  });

  it('leaves every other key alone', () => {
    const { event, done } = keydown('Enter');
    expect(submitOnShortcut(event)).toBe(false);
    expect(done).toEqual({ prevented: false, submitted: 0 });
  });
});
