import { expect, type Locator, type Page } from '@playwright/test';

/** The one browser global tabTo reads in the page (the specs are checked without the DOM lib). */
interface FocusGlobals {
  document: { activeElement: unknown };
}

/** Presses Tab until `target` has focus (a keyboard user's way there), at most `limit` times. */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    const focused = await target.evaluate(
      (element: unknown) =>
        element === (globalThis as unknown as FocusGlobals).document.activeElement,
    );
    if (focused) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}
