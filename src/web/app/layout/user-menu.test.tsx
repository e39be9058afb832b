// @vitest-environment jsdom
import { render } from 'preact';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserDocument } from '@shared/schemas/user.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { UserMenu } from './user-menu.js';

const containers: HTMLElement[] = [];

afterEach(() => {
  for (const container of containers.splice(0)) {
    render(null, container);
    container.remove();
  }
});

/**
 * Renders the menu without Testing Library's `act`, so its effects (Radix's among them) wait for the next
 * frame, as in a browser: a key pressed now is pressed before they have run.
 */
function renderMenu(user: UserDocument): HTMLButtonElement {
  const container = document.createElement('div');
  document.body.append(container);
  containers.push(container);
  render(
    <MemoryRouter>
      <UserMenu user={user} />
    </MemoryRouter>,
    container,
  );
  const trigger = container.querySelector<HTMLButtonElement>('button.user-menu__trigger');
  if (!trigger) throw new Error('the menu button did not render');
  return trigger;
}

function press(target: HTMLElement, key: string) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

/** The focused element's text once the menu has opened, or after 2 s. */
async function focusedItemOnceOpen(): Promise<string | null> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const focused = document.activeElement;
    if (focused?.getAttribute('role') === 'menuitem') return focused.textContent;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return document.activeElement?.textContent ?? null;
}

describe('UserMenu from the keyboard', () => {
  for (const key of ['Enter', ' ', 'ArrowDown']) {
    it(`focuses the first item when ${JSON.stringify(key)} opens it as soon as it appears`, async () => {
      const trigger = renderMenu(makeUserDocument());
      trigger.focus();
      press(trigger, key);
      expect(await focusedItemOnceOpen()).toBe('View Profile');
    });
  }

  it('focuses the last item when ArrowUp opens it as soon as it appears', async () => {
    const trigger = renderMenu(makeUserDocument());
    trigger.focus();
    press(trigger, 'ArrowUp');
    expect(await focusedItemOnceOpen()).toBe('Sign Out');
  });
});
