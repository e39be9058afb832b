import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { escapeRegExp, pathIs } from './support/ui.js';
import {
  commentBox,
  commentItem,
  commentThread,
  likeCount,
  postCard,
  writeComment,
} from './support/posts.js';

// issue "Notifications, search and the everyday things", Small things done right: notices that clear
// themselves, a reply box that closes, sign-in prompts in place of dead controls, clear outcomes.

// The lifetime in src/web/lib/use-self-clearing.ts, with room for a slow run.
const noticeLifetimeMs = 5_000;
const clearedWithin = { timeout: noticeLifetimeMs + 5_000 };

function commentStatus(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Comment posted.' });
}

test('a success notice clears itself, but stays while pointed at; the comment box clears and stays', async ({
  page,
  createUser,
  createPost,
  login,
}) => {
  const author = await createUser();
  const text = `Notices ${Date.now().toString(36)}`;
  const post = await createPost(author, { body: text });
  await login(page, author);
  await page.goto(`/post/${post.id}`);
  await expect(postCard(page, text)).toBeVisible();

  await writeComment(page, 'First, and left alone');
  await expect(commentStatus(page)).toBeVisible();
  await expect(commentBox(page)).toHaveValue('');
  await expect(commentBox(page)).toBeVisible();
  await expect(commentStatus(page)).toHaveCount(0, clearedWithin);

  await writeComment(page, 'Second, and held');
  const notice = commentStatus(page);
  await notice.hover();
  // Well past its time, the pointer still keeps it.
  await page.waitForTimeout(noticeLifetimeMs + 1_500);
  await expect(notice).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(notice).toHaveCount(0, clearedWithin);
});

test('an error stays put while a success notice would have gone', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/settings/account');
  const password = page.getByRole('region', { name: 'Password', exact: true });
  await password.getByLabel('Current password').fill(`${user.password}-wrong`);
  await password.getByLabel('New password').fill(`${user.password}-next`);
  await password.getByRole('button', { name: 'Change password' }).click();
  const error = password.getByText(/That password is not right/);
  await expect(error).toBeVisible();
  await page.waitForTimeout(noticeLifetimeMs + 1_500);
  await expect(error).toBeVisible();
});

test('a reply box closes after sending and focus lands on the new reply', async ({
  page,
  createUser,
  createPost,
  createComment,
  login,
}) => {
  const author = await createUser();
  const reader = await createUser();
  const text = `Replies ${Date.now().toString(36)}`;
  const post = await createPost(author, { body: text });
  const parentText = 'Who wants to answer?';
  await createComment(author, post.id, parentText);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);

  const thread = commentThread(page, parentText);
  const replyButton = commentItem(page, parentText).getByRole('button', {
    name: 'Reply',
    exact: true,
  });
  await replyButton.click();
  const replyBox = thread.getByRole('textbox', { name: 'Write a reply' });
  await expect(replyBox).toBeFocused();
  await replyBox.fill('Me, gladly');
  await thread.getByRole('button', { name: 'Post reply' }).click();

  const reply = commentItem(thread, 'Me, gladly');
  await expect(reply).toHaveAccessibleName(`Reply by ${reader.displayName}`);
  await expect(replyBox).toHaveCount(0);
  await expect(reply).toBeFocused();
  // The post's own comment box is still there for the next comment.
  await expect(commentBox(page)).toBeVisible();

  // Escape still closes it and gives focus back to the Reply button.
  await replyButton.click();
  await expect(replyBox).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(replyBox).toHaveCount(0);
  await expect(replyButton).toBeFocused();
});

test('signed out, Like, Reply and Comment offer sign-in instead of sitting disabled', async ({
  page,
  createUser,
  createPost,
  createComment,
  apiAs,
}) => {
  const author = await createUser();
  const text = `Visitors ${Date.now().toString(36)}`;
  const post = await createPost(author, { body: text });
  const commentText = 'A comment visitors can read';
  const comment = await createComment(author, post.id, commentText);
  const api = await apiAs(author);
  expect((await api.put(`/api/posts/${post.id}/like`)).ok()).toBe(true);
  expect((await api.put(`/api/comments/${comment.id}/like`)).ok()).toBe(true);

  await page.goto(`/post/${post.id}`);
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'Like', exact: true })).toHaveCount(0);
  const likePost = card.getByRole('link', { name: 'Sign in to like' });
  await expect(likePost).toHaveAttribute('href', '/login');
  await expect(likeCount(card, 1)).toBeVisible();

  const item = commentItem(page, commentText);
  await expect(item.getByRole('link', { name: 'Sign in to like' })).toHaveAttribute(
    'href',
    '/login',
  );
  await expect(item.getByRole('link', { name: 'Sign in to reply' })).toHaveAttribute(
    'href',
    '/login',
  );
  await expect(item.getByText('1 like', { exact: true })).toBeVisible();
  await expect(commentBox(page)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign in to comment' })).toHaveAttribute(
    'href',
    '/login',
  );

  await likePost.click();
  await expect(page).toHaveURL(pathIs('/login'));
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});

test('the session list calls this device active now', async ({ page, createUser, login }) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/settings/account');
  const rows = page.getByRole('region', { name: 'Sessions', exact: true }).getByRole('listitem');
  const current = rows.filter({ hasText: 'This device' });
  await expect(current).toHaveCount(1);
  await expect(current).toContainText('Active now');
  await expect(current).not.toContainText('Last active');
});

test('after a password reset the heading says the password changed', async ({
  page,
  createUser,
  readMail,
  appURL,
}) => {
  const user = await createUser();
  const since = Date.now();
  await page.goto('/reset-password');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const mail = await readMail(user.email, { since });
  const pattern = new RegExp(`${escapeRegExp(appURL)}/reset-password\\?token=[A-Za-z0-9._~%-]+`);
  const link = new URL(pattern.exec(mail.text)?.[0] ?? '');

  await page.goto(`${link.pathname}${link.search}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
  ).toBeVisible();
  const password = `Renewed-${Date.now().toString(36)}-Pw`;
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();

  const heading = page.getByRole('heading', { level: 1, name: 'Password changed' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle(/^Password changed/);
  // An outcome, not a passing notice: it stays.
  await page.waitForTimeout(noticeLifetimeMs + 1_000);
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
});
