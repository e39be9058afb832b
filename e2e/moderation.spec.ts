import type { Page } from '@playwright/test';
import { postPath } from '../src/shared/paths.js';
import {
  expect,
  expectNoA11yViolations,
  test,
  uniquePostText,
  type HearthFixtures,
  type TestUser,
} from './fixtures.js';

// issue: moderation and administration, "Must show": a report, the live queue, removal and a 3-day
// suspension with a reason, the author's view and appeal, an administrator lifting it, and the audit log.

/** The queue's group for the post whose text is `text`. */
function queueGroup(page: Page, text: string) {
  return page.getByRole('article', { name: /^Post by / }).filter({ hasText: text });
}

async function staffUser(
  { createUser, cliOk }: Pick<HearthFixtures, 'createUser' | 'cliOk'>,
  role: 'moderator' | 'admin',
): Promise<TestUser> {
  const user = await createUser();
  await cliOk('users', 'set-role', user.username, role);
  return user;
}

test('a report reaches the live queue; removal, suspension, appeal and lifting are audited', async ({
  page,
  newPage,
  createUser,
  cliOk,
  login,
  createPost,
  apiAs,
}) => {
  test.setTimeout(120_000);
  const author = await createUser();
  const reporter = await createUser();
  const moderator = await staffUser({ createUser, cliOk }, 'moderator');
  const admin = await staffUser({ createUser, cliOk }, 'admin');
  const text = uniquePostText('Cheap watches, buy now');
  const post = await createPost(author, { body: text });

  // The moderator watches the Open queue before anything is reported.
  const modPage = await newPage();
  await login(modPage, moderator);
  await modPage.goto('/admin/reports');
  await expect(modPage.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(queueGroup(modPage, text)).toHaveCount(0);

  // The reporter reports the post from its More menu.
  await login(page, reporter);
  await page.goto(postPath(post.id));
  const card = page.getByRole('article', { name: `Post by ${author.displayName}` });
  await card.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this post' });
  await dialog.getByRole('radio', { name: /Spam/ }).check();
  await dialog.getByLabel(/Anything the moderators should know/).fill('Posted everywhere');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(
    page.getByText('Thanks — the moderators will look at it; you’ll be notified of the outcome.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();

  // Reporting it again is refused in the dialog.
  await card.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Report' }).click();
  await dialog.getByRole('radio', { name: /Spam/ }).check();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText(/You have already reported this post/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // It appears in the moderator's queue without a reload.
  const group = queueGroup(modPage, text);
  await expect(group).toBeVisible({ timeout: 15_000 });
  await expect(group.getByText('Posted everywhere')).toBeVisible();

  // Remove the post, with a reason; the group leaves the Open list.
  await group.getByRole('button', { name: 'Remove' }).click();
  const remove = modPage.getByRole('dialog', { name: 'Remove the content' });
  await remove.getByLabel('Reason').fill('Advertising is not allowed here');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(group).toHaveCount(0);

  // Suspend the author for 3 days from the resolved group.
  await modPage.getByRole('tab', { name: 'Resolved' }).click();
  const resolved = queueGroup(modPage, text);
  await expect(resolved.getByText('Removed', { exact: true })).toBeVisible();
  await resolved.getByRole('button', { name: 'Suspend' }).click();
  const suspend = modPage.getByRole('dialog', { name: 'Suspend the author' });
  await suspend.getByLabel('For how long').selectOption('3d');
  await suspend.getByLabel('Reason').fill('Repeated spam after a removal');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(suspend).toHaveCount(0);

  // The author sees why: the banner, the suspension page, and appeals once.
  const authorPage = await newPage();
  await login(authorPage, author);
  await authorPage.goto('/feed');
  await expect(authorPage.getByText(/Your account is suspended until/)).toBeVisible();
  await expect(authorPage.getByRole('button', { name: 'Write' })).toHaveCount(0);
  await authorPage.getByRole('link', { name: 'Why, and how to appeal' }).first().click();
  await expect(authorPage).toHaveURL(/\/settings\/suspension$/);
  await expect(authorPage.getByText('Repeated spam after a removal')).toBeVisible();
  await expect(authorPage.getByText(/in 3 days|in 2 days|in 72 hours/)).toBeVisible();
  await authorPage.getByLabel('Your appeal').fill('It was a mistake, I will stop.');
  await authorPage.getByRole('button', { name: 'Send appeal' }).click();
  await expect(authorPage.getByText('Appeal sent')).toBeVisible();

  // An administrator accepts the appeal, which lifts the suspension.
  const adminPage = await newPage();
  await login(adminPage, admin);
  await adminPage.goto('/admin/reports?tab=appeals');
  const appeal = adminPage
    .getByRole('article', { name: `Appeal by ${author.displayName}` })
    .filter({ hasText: 'It was a mistake, I will stop.' });
  await expect(appeal.getByText('Repeated spam after a removal')).toBeVisible();
  await appeal.getByRole('button', { name: 'Accept' }).click();
  const accept = adminPage.getByRole('dialog', { name: 'Accept the appeal' });
  await accept.getByLabel('Reason').fill('Fair enough, one more chance');
  await accept.getByRole('button', { name: 'Accept and lift' }).click();
  await expect(appeal).toHaveCount(0);

  // The author's open page learns at once: no banner, good standing.
  await authorPage.goto('/settings/suspension');
  await expect(
    authorPage.getByRole('heading', { name: 'Your account is in good standing' }),
  ).toBeVisible();
  await expect(authorPage.getByText(/Your account is suspended/)).toHaveCount(0);

  // Every step is in the audit log, with its reason.
  const api = await apiAs(admin);
  const response = await api.get(`/api/admin/audit?target=${author.username}`);
  expect(response.status()).toBe(200);
  const entries = (
    (await response.json()) as { items: { action: string; reason: string | null }[] }
  ).items;
  const reasons = new Map(entries.map((entry) => [entry.action, entry.reason]));
  expect(reasons.get('content_removed')).toBe('Advertising is not allowed here');
  expect(reasons.get('user_suspended')).toBe('Repeated spam after a removal');
  expect(reasons.get('appeal_accepted')).toBe('Fair enough, one more chance');

  // The removed post shows its author why, instead of its actions; nobody else sees it.
  await authorPage.goto(postPath(post.id));
  await expect(authorPage.getByText(/Removed by moderators/)).toBeVisible();
  await expect(authorPage.getByText('Advertising is not allowed here')).toBeVisible();
  await page.goto(postPath(post.id));
  await expect(page.getByText(text)).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the reports queue and the suspension page have no serious or critical violation', async ({
      page,
      newPage,
      createUser,
      cliOk,
      login,
      createPost,
      apiAs,
    }) => {
      const author = await createUser();
      const reporter = await createUser();
      const moderator = await staffUser({ createUser, cliOk }, 'moderator');
      const text = uniquePostText('Accessible report');
      const post = await createPost(author, { body: text });
      const reported = await (
        await apiAs(reporter)
      ).post('/api/reports', {
        data: { targetKind: 'post', targetId: post.id, reason: 'harassment', comment: 'Rude' },
      });
      expect(reported.status()).toBe(201);

      await login(page, moderator);
      await page.goto('/admin/reports');
      await expect(queueGroup(page, text)).toBeVisible();
      await expectNoA11yViolations(page, `reports queue (${scheme})`);

      const suspended = await (
        await apiAs(moderator)
      ).put(`/api/admin/users/${author.uid}/suspension`, {
        data: { reason: 'Harassment', duration: '3d' },
      });
      expect(suspended.status()).toBe(200);
      const authorPage = await newPage();
      await login(authorPage, author);
      await authorPage.goto('/settings/suspension');
      await expect(
        authorPage.getByRole('heading', { name: 'Your account is suspended' }),
      ).toBeVisible();
      await expectNoA11yViolations(authorPage, `suspension page (${scheme})`);
    });
  });
}
