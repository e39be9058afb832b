import type { Page } from '@playwright/test';
import { postPath } from '../src/shared/paths.js';
import {
  expect,
  sessionOf,
  signInViaApi,
  test,
  uniqueIp,
  uniquePostText,
  type TestUser,
} from './fixtures.js';
import { commentItem, likeButton, likeCount, postCard, profileCount } from './support/posts.js';
import {
  collectPageProblems,
  expectSameDocument,
  expectSignedOutNav,
  markDocument,
  pathIs,
  userMenuButton,
} from './support/ui.js';

// Account changes reach every open page (issue item 5): a deleted account leaves other people's pages
// live, and a tab whose session was ended elsewhere shows itself signed out without a reload.

const settingsPath = '/settings/account';

/** Deletes the signed-in account through the settings page, as its owner would. */
async function deleteAccountInSettings(page: Page, user: TestUser): Promise<void> {
  await page.goto(settingsPath);
  const danger = page.getByRole('region', { name: 'Delete account', exact: true });
  await danger.getByLabel('Password').fill(user.password);
  await danger.getByRole('button', { name: 'Delete account' }).click();
  await danger.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(page).toHaveURL(pathIs('/feed'));
  await expectSignedOutNav(page);
}

/** The settings row of the session signed in from `ip`, revoked from `page`. */
async function revokeSessionFrom(page: Page, ip: string): Promise<void> {
  await page.goto(settingsPath);
  const sessions = page.getByRole('region', { name: 'Sessions', exact: true });
  const row = sessions.getByRole('listitem').filter({ hasText: ip });
  await row.getByRole('button', { name: /^Revoke / }).click();
  await expect(sessions.getByRole('status')).toContainText('was signed out');
}

test("a deleted account's comment, like and follow leave the pages others have open, without a reload", async ({
  page,
  newPage,
  createUser,
  login,
  apiAs,
  createPost,
  createComment,
  follow,
}) => {
  // Four pages across two people, and an account deletion confirmed by password: slow on a busy machine.
  test.slow();
  const leaving = await createUser();
  const staying = await createUser();
  const text = uniquePostText('Keeps its page');
  const post = await createPost(staying, { body: text });
  const comment = uniquePostText('Said before leaving');
  await createComment(leaving, post.id, comment);
  const liked = await (await apiAs(leaving)).put(`/api/posts/${post.id}/like`);
  expect(liked.status()).toBe(200);
  await follow(leaving, staying);
  const goneText = uniquePostText('Leaves with its author');
  const gone = await createPost(leaving, { body: goneText });

  // The staying user has three pages open: their post, their profile, and the leaving user's post.
  const postPage = await newPage();
  const problems = collectPageProblems(postPage);
  await login(postPage, staying);
  await postPage.goto(postPath(post.id));
  const card = postCard(postPage, text);
  await expect(likeCount(card, 1)).toBeVisible();
  await expect(card.getByText('1 comment', { exact: true })).toBeVisible();
  await expect(commentItem(postPage, comment)).toBeVisible();
  await markDocument(postPage);

  const profilePage = await postPage.context().newPage();
  const profileProblems = collectPageProblems(profilePage);
  await profilePage.goto(`/${staying.username}`);
  await expect(profileCount(profilePage, 1, 'follower')).toBeVisible();
  await markDocument(profilePage);

  const theirPostPage = await postPage.context().newPage();
  await theirPostPage.goto(postPath(gone.id));
  await expect(postCard(theirPostPage, goneText)).toBeVisible();
  await markDocument(theirPostPage);

  await login(page, leaving);
  await deleteAccountInSettings(page, leaving);

  await expect(commentItem(postPage, comment)).toHaveCount(0);
  await expect(likeCount(card, 0)).toBeVisible();
  await expect(card.getByText('0 comments', { exact: true })).toBeVisible();
  await expect(profileCount(profilePage, 0, 'follower')).toBeVisible();
  await expect(
    theirPostPage.getByRole('heading', { level: 1, name: 'This post was deleted' }),
  ).toBeVisible();
  for (const open of [postPage, profilePage, theirPostPage]) await expectSameDocument(open);
  expect([...problems, ...profileProblems]).toEqual([]);
});

test('a tab whose session was revoked elsewhere shows Login and Sign Up at its next realtime message', async ({
  page,
  browser,
  createUser,
  createPost,
  login,
  appURL,
}) => {
  const user = await createUser();
  const text = uniquePostText('Read while signed in');
  const post = await createPost(user, { body: text });
  const ip = uniqueIp();
  const other = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  try {
    await signInViaApi(other, appURL, user);
    const revoked = await other.newPage();
    await revoked.goto(postPath(post.id));
    await expect(userMenuButton(revoked, user.displayName)).toBeVisible();
    await expect(postCard(revoked, text)).toBeVisible();
    await markDocument(revoked);

    await login(page, user);
    await revokeSessionFrom(page, ip);

    // Nothing is clicked in the revoked tab: the server tells its socket that the session ended.
    await expectSignedOutNav(revoked);
    await expect(userMenuButton(revoked, user.displayName)).toHaveCount(0);
    await expect(postCard(revoked, text)).toBeVisible();
    await expectSameDocument(revoked);
    expect(await sessionOf(other)).toBeNull();
    // The tab that revoked stays signed in.
    await expect(userMenuButton(page, user.displayName)).toBeVisible();
  } finally {
    await other.close();
  }
});

test('a tab whose session was revoked elsewhere shows Login and Sign Up at its next request', async ({
  page,
  browser,
  createUser,
  createPost,
  login,
  appURL,
}) => {
  const author = await createUser();
  const user = await createUser();
  const text = uniquePostText('Liked too late');
  const post = await createPost(author, { body: text });
  const ip = uniqueIp();
  const other = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  try {
    await signInViaApi(other, appURL, user);
    const revoked = await other.newPage();
    // No socket for this tab (its documents come over HTTP), so only its own next request can tell it.
    await revoked.routeWebSocket(/\/api\/realtime$/, () => undefined);
    await revoked.goto(postPath(post.id));
    await expect(userMenuButton(revoked, user.displayName)).toBeVisible();
    const card = postCard(revoked, text);
    await expect(likeButton(card)).toHaveAttribute('aria-pressed', 'false');
    await markDocument(revoked);

    await login(page, user);
    await revokeSessionFrom(page, ip);
    await expect(userMenuButton(revoked, user.displayName)).toBeVisible();

    await likeButton(card).click();
    await expectSignedOutNav(revoked);
    await expect(userMenuButton(revoked, user.displayName)).toHaveCount(0);
    // A public page stays on screen, without an error page or a reload.
    await expect(revoked).toHaveURL(pathIs(postPath(post.id)));
    await expect(card).toBeVisible();
    await expect(likeCount(card, 0)).toBeVisible();
    await expectSameDocument(revoked);
  } finally {
    await other.close();
  }
});
