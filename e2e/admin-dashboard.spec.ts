import type { Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test, type TestUser } from './fixtures.js';
import { expectNoSidewaysScroll } from './support/layout.js';
import { watchCsp } from './support/csp.js';

// The moderation console's dashboard (issue: moderation and administration §4): only staff reach it; its
// charts and page-performance table fill from real use of the app; axe is clean in light and dark.

/**
 * Loads a page and leaves it: leaving hides the page, and the reporter sends what it measured with
 * sendBeacon (which the server receives; the browser does not show it to the test as a request).
 */
async function loadAndLeave(page: Page, path: string, ready: () => Promise<void>) {
  await page.goto(path);
  await ready();
  // The reporter's code arrives after the first page's; wait until it is measuring.
  await page.waitForFunction(() =>
    performance
      .getEntriesByType('resource')
      .some((entry) => /\/assets\/web-vitals-(?!reporter)/.test(entry.name)),
  );
  await page.goto('about:blank');
}

async function makeAdmin(
  createUser: () => Promise<TestUser>,
  cliOk: (...args: string[]) => Promise<unknown>,
): Promise<TestUser> {
  const admin = await createUser();
  await cliOk('users', 'set-role', admin.username, 'admin');
  return admin;
}

test.describe('the console dashboard', () => {
  test('is the not-found page for visitors and users, with no sign of the console', async ({
    page,
    createUser,
    login,
  }) => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const user = await createUser();
    await login(page, user);
    for (const path of ['/admin', '/admin/reports']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Moderation console' })).toHaveCount(0);
    }
    await expect(page.locator('a[href="/admin"]')).toHaveCount(0);
  });

  test('fills its charts and page-performance table from real use', async ({
    page,
    createUser,
    createPost,
    createComment,
    cliOk,
    login,
    newPage,
  }) => {
    test.setTimeout(120_000);
    const checkCsp = await watchCsp(page);
    const admin = await makeAdmin(createUser, cliOk);
    const author = await createUser();
    const post = await createPost(author, { body: 'A post for the dashboard' });
    await createPost(author, { body: 'Another post for the dashboard' });
    await createComment(admin, post.id, 'A comment for the dashboard');

    // Real page loads in another browser, each reported as it is left.
    const visitor = await newPage();
    await loadAndLeave(visitor, '/privacy', () =>
      expect(visitor.getByRole('heading', { level: 1 })).toBeVisible(),
    );
    await loadAndLeave(visitor, `/post/${post.id}`, () =>
      expect(visitor.getByText('A post for the dashboard')).toBeVisible(),
    );

    await login(page, admin);
    await page.goto('/feed');
    // The way in, for staff, from the main navigation.
    await page.locator('a.main-nav__link[href="/admin"]').click();
    await expect(page).toHaveURL(/\/admin$/);
    const nav = page.getByRole('navigation', { name: 'Moderation console' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Instance' })).toBeVisible();

    // Figures are counted at most every 30 seconds: reload until this test's activity is in them.
    const activity = page.getByRole('region', { name: 'Posts and comments per day' });
    const performanceTable = page.getByRole('table', { name: /Page performance by page/ });
    await expect(async () => {
      await page.reload();
      await expect(activity).toBeVisible({ timeout: 5_000 });
      await activity.getByText('Show the figures').click();
      const today = activity.getByRole('row').last();
      const cells = await today.getByRole('cell').allTextContents();
      expect(Number(cells[0]?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
      expect(Number(cells[1]?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
      await expect(performanceTable.getByRole('row', { name: /\/privacy/ })).toBeVisible({
        timeout: 2_000,
      });
      await expect(performanceTable.getByRole('row', { name: /\/post\/:postId/ })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });

    // Drawn with the chart library, with its summary sentence beside it.
    await expect(page.locator('.chart__plot canvas')).toHaveCount(2);
    await expect(
      activity.getByText(/\d+ posts? and \d+ comments? in the last 30 days/),
    ).toBeVisible();
    const privacy = performanceTable.getByRole('row', { name: /\/privacy/ });
    await expect(privacy).toContainText(/\d+ samples?/);
    await expect(privacy).toContainText(/Good|Needs improvement|Poor/);
    // The charts set their styles through the CSSOM, which the policy allows: nothing is refused. (zod's
    // one `new Function` probe at start-up is reported on every page of the app, so it is set aside here.)
    const refused = await checkCsp();
    expect(refused.filter((violation) => !violation.startsWith('script-src eval'))).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`has no serious or critical axe violation in ${scheme}`, async ({
      page,
      createUser,
      createPost,
      cliOk,
      login,
    }) => {
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: scheme });
      const admin = await makeAdmin(createUser, cliOk);
      await createPost(admin, { body: `A post to chart (${scheme})` });
      await login(page, admin);
      await page.goto('/admin');
      const activity = page.getByRole('region', { name: 'Posts and comments per day' });
      await expect(activity).toBeVisible();
      await expect(page.locator('.chart__plot canvas')).toHaveCount(2);
      await activity.getByText('Show the figures').click();
      await expect(
        page
          .getByRole('table', { name: /Page performance by page/ })
          .or(page.getByRole('heading', { name: 'No reports yet' })),
      ).toBeVisible();
      await expectNoA11yViolations(page, `admin dashboard (${scheme})`);

      // A phone: the sections become a tab bar, and nothing scrolls the page sideways.
      await page.setViewportSize({ width: 360, height: 760 });
      await expect(page.getByRole('navigation', { name: 'Moderation console' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoA11yViolations(page, `admin dashboard at 360px (${scheme})`);
    });
  }
});
