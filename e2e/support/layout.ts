import { expect, type Page } from '@playwright/test';
import type { PageGlobals } from './page-globals.js';

/** Fails when the page scrolls sideways at its current width (a layout wider than the screen). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    return {
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    };
  });
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}
