import { defaultImages } from '../src/shared/paths.js';
import { expect, test } from './fixtures.js';
import type { PageImage } from './support/page-globals.js';
import { collectPageProblems } from './support/ui.js';

// spec §3 default images, spec §9 production console silencing, and pages that run without errors.

test('a profile without an avatar shows the default avatar and the default cover', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await page.goto(`/${user.username}`);
  const main = page.getByRole('main');
  const avatar = main.getByRole('img', { name: `${user.displayName}'s avatar` });
  await expect(avatar).toHaveAttribute('src', defaultImages.avatar);
  await expect
    .poll(() => avatar.evaluate((image: unknown) => (image as PageImage).naturalWidth))
    .toBeGreaterThan(0);
  const cover = main.locator(`img[src="${defaultImages.cover}"]`);
  await expect(cover).toHaveCount(1);
  await expect
    .poll(() => cover.evaluate((image: unknown) => (image as PageImage).naturalWidth))
    .toBeGreaterThan(0);
});

test('an avatar that fails to load falls back to /default-avatar.png', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await page.route(`**${defaultImages.avatar}`, (route) =>
    route.fulfill({ status: 404, body: '' }),
  );
  await page.goto(`/${user.username}`);
  const avatar = page.getByRole('main').getByRole('img', { name: `${user.displayName}'s avatar` });
  await expect(avatar).toHaveAttribute('src', defaultImages.avatarFallback);
  await expect
    .poll(() => avatar.evaluate((image: unknown) => (image as PageImage).naturalWidth))
    .toBeGreaterThan(0);
});

test('production silences console log, table, debug, info and warn', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => {
    messages.push(`${message.type()}: ${message.text()}`);
  });
  await page.goto('/feed');
  await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
  await page.evaluate(() => {
    const { console } = globalThis as unknown as {
      console: Record<'log' | 'table' | 'debug' | 'info' | 'warn', (value: string) => void>;
    };
    console.log('e2e log');
    console.table('e2e table');
    console.debug('e2e debug');
    console.info('e2e info');
    console.warn('e2e warn');
  });
  // Give any stray message time to arrive before asserting there was none.
  await page.waitForTimeout(300);
  expect(messages.filter((message) => message.includes('e2e '))).toEqual([]);
});

test('the main pages load without uncaught errors, console errors or failed requests', async ({
  page,
  createUser,
  login,
}) => {
  const problems = collectPageProblems(page);
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${String(response.status())} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // Navigations away from a page abort its pending requests; only real failures count.
    const failure = request.failure()?.errorText ?? '';
    if (!failure.includes('ERR_ABORTED')) problems.push(`failed: ${request.url()} ${failure}`);
  });
  const user = await createUser();
  for (const path of ['/feed', '/login', '/register', '/reset-password', '/tos', '/privacy']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await login(page, user);
  for (const path of [
    '/feed',
    `/${user.username}`,
    `/${user.username}/edit-profile`,
    '/settings/account',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await page.getByRole('button', { name: user.displayName }).click();
  await expect(page.getByRole('menuitem', { name: 'View Profile' })).toBeVisible();
  expect(problems).toEqual([]);
});
