import { expect, type Locator, type Page } from '@playwright/test';
import type { PageGlobals } from './page-globals.js';

/** The navigation bar (spec §2). */
export function navBar(page: Page): Locator {
  return page.getByRole('navigation').first();
}

/** The signed-in user's menu button: its accessible name contains the display name (spec §2, §3). */
export function userMenuButton(page: Page, displayName: string): Locator {
  return page.getByRole('button', { name: displayName });
}

/** The open user menu. */
export function userMenu(page: Page): Locator {
  return page.getByRole('menu');
}

/** The page footer (spec §2). */
export function footer(page: Page): Locator {
  return page.getByRole('contentinfo');
}

/** A not-found state: a heading saying the thing is not there. */
export function notFoundHeading(page: Page): Locator {
  return page.getByRole('heading', { name: /not found|doesn[’']t exist|does not exist|no such/i });
}

/** The notice an inactive account sees (brief: "the account awaits activation"). */
export function inactiveNotice(page: Page): Locator {
  return page
    .getByText(
      /await(s|ing)? (activation|approval)|not (yet )?(been )?activated|pending activation|has been deactivated/i,
    )
    .first();
}

/** Asserts the signed-out navigation: Login and Sign Up links, no user menu. */
export async function expectSignedOutNav(page: Page): Promise<void> {
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A URL matcher for exactly this path on the app's origin (query string allowed). */
export function pathIs(path: string): RegExp {
  return new RegExp(`^https?://[^/]+${escapeRegExp(path)}(\\?.*)?$`);
}

/** Marks the document so a later check can prove that no full reload happened in between. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).__hearthE2eMarker = true;
  });
}

/** True while the document marked by markDocument is still the one loaded. */
export async function expectSameDocument(page: Page): Promise<void> {
  const marked = await page.evaluate(
    () => (globalThis as unknown as PageGlobals).__hearthE2eMarker === true,
  );
  expect(marked, 'the page reloaded; the change should have arrived live').toBe(true);
}

/**
 * Collects what must never happen on a page: uncaught errors and console errors (a blocked inline style
 * or script under the CSP, ADR 0006, shows up as one). Read the returned array at the end of a test.
 */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return problems;
}
