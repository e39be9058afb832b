import type { Locator, Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test, type TestUser } from './fixtures.js';
import { tabTo } from './support/keyboard.js';
import { followButton, likeButton, postCard } from './support/posts.js';
import { expectNoSidewaysScroll } from './support/layout.js';
import { escapeRegExp, pathIs } from './support/ui.js';

// Notifications (issue: notifications and search §2, "Must show"): two people follow, like, reply to and
// mention each other, and the bell and the grouped list change live in another tab; a mention is mailed
// with a one-click unsubscribe link that works once; the settings by keyboard alone; axe on every page.

/** The navigation's Notifications link, with the unread count in its name when there is one. */
function bell(page: Page, unread: number | null): Locator {
  const name = unread === null ? 'Notifications' : `Notifications, ${String(unread)} unread`;
  return page.getByRole('link', { name, exact: true });
}

/** The notification whose sentence is `sentence` (the sentence is the item's link). */
function notification(page: Page, sentence: string): Locator {
  return page.getByRole('link', { name: sentence, exact: true });
}

function kindGroup(page: Page, name: string): Locator {
  return page.getByRole('group', { name, exact: true });
}

test('two people follow, like, reply and mention each other; bells and groups change live in other tabs', async ({
  page,
  newPage,
  createUser,
  login,
  createPost,
  createComment,
  apiAs,
}) => {
  // A long story of three people, four pages and a dozen live updates.
  test.setTimeout(120_000);
  const ana = await createUser();
  const bo = await createUser();
  const cy = await createUser();
  await login(page, ana);

  // Ana has two tabs: one anywhere (the bell), one on her notifications.
  await page.goto('/search');
  await expect(bell(page, null)).toBeVisible();
  const list = await page.context().newPage();
  await list.goto('/notifications');
  await expect(list.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(list.getByRole('heading', { name: 'No notifications yet' })).toBeVisible();
  await expectNoA11yViolations(list, 'empty notifications');

  // Bo, in a browser of his own, follows Ana from her profile.
  const boPage = await newPage();
  await login(boPage, bo);
  await boPage.goto(`/${ana.username}`);
  await followButton(boPage).click();
  await expect(followButton(boPage)).toHaveAccessibleName('Following');

  // The open list shows it at once and marks it read, so the bell of the other tab goes back to none.
  await expect(notification(list, `${bo.displayName} followed you`)).toBeVisible();
  await expect(notification(list, `${bo.displayName} followed you`)).toHaveAttribute(
    'href',
    `/${bo.username}`,
  );
  await expect(bell(page, null)).toBeVisible();

  // With the list closed, the bell counts: Bo and Cy like Ana's post, grouped into one notification.
  await list.close();
  const post = await createPost(ana, { body: `Bread from scratch ${ana.username}` });
  await boPage.goto(`/post/${post.id}`);
  await likeButton(postCard(boPage, 'Bread from scratch')).click();
  await expect(bell(page, 1)).toBeVisible();
  const cyApi = await apiAs(cy);
  expect((await cyApi.put(`/api/posts/${post.id}/like`)).status()).toBe(200);
  // Likes of one post are one notification: the bell counts it once.
  await expect(bell(page, 1)).toBeVisible();

  // Bo comments; Ana replies to him; Bo mentions Ana in a post.
  const comment = await createComment(bo, post.id, 'Looks great, what flour?');
  await expect(bell(page, 2)).toBeVisible();
  await boPage.goto('/notifications');
  await expect(boPage.getByRole('heading', { name: 'No notifications yet' })).toBeVisible();
  await createComment(ana, post.id, 'Plain white, nothing fancy.', comment.id);
  await expect(notification(boPage, `${ana.displayName} replied to your comment`)).toBeVisible();
  await expect(boPage.getByText('Plain white, nothing fancy.')).toBeVisible();
  await createPost(bo, { body: `Thanks @${ana.username} for the bread tips` });
  await expect(bell(page, 3)).toBeVisible();

  // Ana opens her notifications: newest first, grouped, unread marked in words; her bell clears.
  await bell(page, 3).click();
  await expect(page).toHaveURL(pathIs('/notifications'));
  const items = page.getByRole('list', { name: 'All notifications' }).getByRole('listitem');
  await expect(items).toHaveCount(4);
  await expect(items.nth(0)).toContainText(`${bo.displayName} mentioned you in a post`);
  await expect(items.nth(1)).toContainText(`${bo.displayName} commented on your post`);
  await expect(items.nth(1)).toContainText('Looks great, what flour?');
  await expect(items.nth(2)).toContainText(
    `${cy.displayName} and ${bo.displayName} liked your post`,
  );
  await expect(items.nth(3)).toContainText(`${bo.displayName} followed you`);
  for (const index of [0, 1, 2]) await expect(items.nth(index)).toContainText('New');
  await expect(items.nth(3)).not.toContainText('New');
  await expect(bell(page, null)).toBeVisible();
  await expectNoA11yViolations(page, 'notifications');

  // Mentions, by keyboard: the tab moves with the arrow keys and lives in the address.
  await page.getByRole('tab', { name: 'All' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\?tab=mentions$/);
  await expect(page.getByRole('tab', { name: 'Mentions' })).toBeFocused();
  const mentions = page.getByRole('list', { name: 'Mentions' }).getByRole('listitem');
  await expect(mentions).toHaveCount(1);
  await expect(mentions.first()).toContainText(`${bo.displayName} mentioned you in a post`);

  // The grouped like leads to the post.
  await page.keyboard.press('ArrowLeft');
  await tabTo(page, notification(page, `${cy.displayName} and ${bo.displayName} liked your post`));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(pathIs(`/post/${post.id}`));
});

test('a mention is mailed with an unsubscribe link that works once, without signing in', async ({
  page,
  newPage,
  createUser,
  createPost,
  login,
  readMail,
  appURL,
}) => {
  const ana = await createUser();
  const bo = await createUser();
  const since = Date.now();
  await createPost(bo, { body: `Hello @${ana.username}, see you at the market` });

  const mail = await readMail(ana.email, { since, subject: /mentioned you/ });
  expect(mail.subject).toContain(`${bo.displayName} (@${bo.username}) mentioned you in a post`);
  const link = new RegExp(`Unsubscribe: (${escapeRegExp(appURL)}/unsubscribe/[A-Za-z0-9_-]+)`).exec(
    mail.text,
  )?.[1];
  expect(link, mail.text).toBeDefined();
  expect(mail.raw).toMatch(/^List-Unsubscribe: <https?:\/\/[^>]+\/api\/unsubscribe\/[\w-]+>/m);
  expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  const path = new URL(link ?? '').pathname;

  // Signed out, in a browser of its own: the page asks first, and the button does it.
  const visitor = await newPage();
  await visitor.goto(path);
  await expect(visitor.getByText(/^Stop emails about mentions to .+@.+\?$/)).toBeVisible();
  await expectNoA11yViolations(visitor, 'unsubscribe');
  const button = visitor.getByRole('button', { name: 'Unsubscribe' });
  await tabTo(visitor, button);
  await visitor.keyboard.press('Enter');
  await expect(visitor.getByText(/You won’t get these emails any more\./)).toBeVisible();
  await expect(
    visitor.getByRole('link', { name: 'Change all your email settings' }),
  ).toHaveAttribute('href', '/settings/notifications');

  // Ana's settings say mentions are no longer mailed.
  await login(page, ana);
  await page.goto('/settings/notifications');
  const mentionsGroup = kindGroup(page, 'Mentions');
  await expect(mentionsGroup.getByRole('radio', { name: 'Never' })).toBeChecked();
  await expect(
    kindGroup(page, 'Replies to your comments').getByRole('radio', { name: 'As it happens' }),
  ).toBeChecked();

  // The link works once.
  await visitor.goto(path);
  await expect(visitor.getByRole('heading', { name: 'This link was already used' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);

  // A made-up link is not a link.
  await visitor.goto(`/unsubscribe/${'x'.repeat(43)}`);
  await expect(visitor.getByRole('heading', { name: 'This link doesn’t work' })).toBeVisible();
  await expectNoA11yViolations(visitor, 'unknown unsubscribe link');
});

test('notification settings change by keyboard alone, and the notice clears itself', async ({
  page,
  createUser,
  login,
}) => {
  const ana = await createUser();
  await login(page, ana);
  await page.goto('/settings/account');
  await page.getByRole('link', { name: 'Notification settings' }).click();
  await expect(page).toHaveURL(pathIs('/settings/notifications'));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Notification settings' }),
  ).toBeVisible();
  await expectNoA11yViolations(page, 'notification settings');

  // Likes may be emailed in the digest, never as they happen.
  const likes = kindGroup(page, 'Likes of your posts');
  await expect(likes.getByRole('radio', { name: 'As it happens' })).toHaveCount(0);

  const inApp = likes.getByRole('checkbox', { name: 'In the app' });
  await tabTo(page, inApp);
  await page.keyboard.press('Space');
  await expect(inApp).not.toBeChecked();
  // Into the radio group: the checked one takes focus; an arrow key chooses the next.
  await page.keyboard.press('Tab');
  await expect(likes.getByRole('radio', { name: 'Never' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(likes.getByRole('radio', { name: 'In a daily digest' })).toBeChecked();

  await tabTo(page, page.getByRole('button', { name: 'Save settings' }));
  await page.keyboard.press('Enter');
  const notice = page.getByText('Your notification settings were saved.');
  await expect(notice).toBeVisible();
  // Success notices clear themselves (issue §5) once nothing holds them.
  await page.mouse.move(0, 0);
  await page.locator('body').focus();
  await expect(notice).toBeHidden({ timeout: 15_000 });

  await page.reload();
  await expect(
    kindGroup(page, 'Likes of your posts').getByRole('checkbox', { name: 'In the app' }),
  ).not.toBeChecked();
  await expect(
    kindGroup(page, 'Likes of your posts').getByRole('radio', { name: 'In a daily digest' }),
  ).toBeChecked();
});

test('signed out, notifications and their settings lead to sign-in', async ({ page }) => {
  await page.goto('/notifications');
  await expect(page).toHaveURL(pathIs('/login'));
  await page.goto('/settings/notifications');
  await expect(page).toHaveURL(pathIs('/login'));
});

test('the notifications page fits a 360px screen in the dark', async ({
  page,
  createUser,
  login,
  follow,
}) => {
  const ana: TestUser = await createUser();
  const bo = await createUser();
  await follow(bo, ana);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await login(page, ana);
  await page.goto('/notifications');
  await expect(notification(page, `${bo.displayName} followed you`)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoA11yViolations(page, 'notifications at 360px, dark');
});
