import { expect, test, uniquePostText } from './fixtures.js';
import {
  countText,
  feedTab,
  followButton,
  postCard,
  profileCount,
  profileCounts,
} from './support/posts.js';
import { collectPageProblems, expectSameDocument, markDocument } from './support/ui.js';

// Follows (issue: posts §5): the toggle on profiles, counts, lists, and the Following feed.

test('following someone from their profile brings their posts into the Following feed; unfollowing takes them out', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const problems = collectPageProblems(page);
  const reader = await createUser();
  const author = await createUser();
  const text = uniquePostText('Worth following');
  await createPost(author, { body: text });
  await login(page, reader);

  await page.goto('/feed');
  await expect(feedTab(page, 'Following')).toHaveAttribute('aria-selected', 'true');
  await expect(postCard(page, text)).toHaveCount(0);

  await page.goto(`/${author.username}`);
  const toggle = followButton(page);
  await expect(toggle).toHaveAccessibleName('Follow');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(profileCount(page, 0, 'follower')).toBeVisible();
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Following');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(profileCount(page, 1, 'follower')).toBeVisible();
  // The profile lists the user's posts.
  await expect(postCard(page, text)).toBeVisible();

  await page.goto('/feed');
  await expect(postCard(page, text)).toBeVisible();

  await page.goto(`/${author.username}`);
  await followButton(page).click();
  await expect(followButton(page)).toHaveAccessibleName('Follow');
  await expect(profileCount(page, 0, 'follower')).toBeVisible();
  await page.goto('/feed');
  await expect(feedTab(page, 'Following')).toHaveAttribute('aria-selected', 'true');
  await expect(postCard(page, text)).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('follower and following lists and counts, reached from the profile', async ({
  page,
  createUser,
  follow,
}) => {
  const problems = collectPageProblems(page);
  const alice = await createUser();
  const bob = await createUser();
  const carol = await createUser();
  await follow(bob, alice);
  await follow(carol, alice);
  await follow(alice, bob);

  await page.goto(`/${alice.username}`);
  const counts = profileCounts(page);
  await expect(profileCount(page, 2, 'follower')).toBeVisible();
  await expect(profileCount(page, 1, 'following')).toBeVisible();
  await counts.getByRole('link', { name: countText(2, 'follower') }).click();
  await expect(page).toHaveURL(new RegExp(`/${alice.username}/followers$`));
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: bob.displayName }).first()).toBeVisible();
  await expect(main.getByRole('link', { name: carol.displayName }).first()).toBeVisible();

  await page.goto(`/${alice.username}`);
  await profileCounts(page)
    .getByRole('link', { name: countText(1, 'following') })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${alice.username}/following$`));
  await expect(main.getByRole('link', { name: bob.displayName }).first()).toBeVisible();
  await expect(main.getByRole('link', { name: carol.displayName })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("a profile's follower count changes live for a visitor when someone follows", async ({
  page,
  newPage,
  createUser,
  login,
}) => {
  const author = await createUser();
  const fan = await createUser();
  const visitor = await newPage();
  await visitor.goto(`/${author.username}`);
  await expect(profileCount(visitor, 0, 'follower')).toBeVisible();
  await markDocument(visitor);

  await login(page, fan);
  await page.goto(`/${author.username}`);
  await followButton(page).click();
  await expect(followButton(page)).toHaveAttribute('aria-pressed', 'true');

  await expect(profileCount(visitor, 1, 'follower')).toBeVisible();
  await expectSameDocument(visitor);
});

test('nobody is offered to follow themselves, and a visitor is asked to sign in first', async ({
  page,
  newPage,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto(`/${user.username}`);
  await expect(page.getByRole('link', { name: 'Edit profile' })).toBeVisible();
  await expect(followButton(page)).toHaveCount(0);

  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  await expect(visitor.getByRole('link', { name: /sign in to follow/i })).toBeVisible();
});

test('an inactive user sees a disabled Follow button and why', async ({
  page,
  createUser,
  login,
  cliOk,
}) => {
  const author = await createUser();
  const user = await createUser();
  await cliOk('users', 'set-active', user.username, 'false');
  await login(page, user);
  await page.goto(`/${author.username}`);
  const toggle = followButton(page);
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAccessibleDescription(/activat/i);
});
