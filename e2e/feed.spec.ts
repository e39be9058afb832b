import { limits } from '../src/shared/limits.js';
import { expect, test, uniquePostText } from './fixtures.js';
import { composer, feedTab, findInFeed, postCard, postCards, writePost } from './support/posts.js';
import { collectPageProblems, pathIs } from './support/ui.js';

// The feed at / and /feed (issue: posts §6): two tabs, newest first, keyset pagination with
// infinite scroll and a "Load more" fallback, hashtag filtering.

test('signed out, the feed is Everyone only and offers no composer', async ({
  page,
  createUser,
  createPost,
}) => {
  const problems = collectPageProblems(page);
  const author = await createUser();
  const text = uniquePostText('For everyone');
  await createPost(author, { body: text });
  for (const path of ['/', '/feed']) {
    await page.goto(path);
    await findInFeed(page, text);
    await expect(feedTab(page, 'Following')).toHaveCount(0);
    await expect(composer(page)).toHaveCount(0);
  }
  expect(problems).toEqual([]);
});

test('signed in, Following is the default: own posts and followed people, while Everyone has all', async ({
  page,
  createUser,
  login,
  createPost,
  follow,
}) => {
  const problems = collectPageProblems(page);
  const reader = await createUser();
  const followed = await createUser();
  const stranger = await createUser();
  const followedText = uniquePostText('From a friend');
  const strangerText = uniquePostText('From a stranger');
  await follow(reader, followed);
  await createPost(followed, { body: followedText });
  await createPost(stranger, { body: strangerText });
  await login(page, reader);

  await page.goto('/');
  const following = feedTab(page, 'Following');
  const everyone = feedTab(page, 'Everyone');
  await expect(following).toHaveAttribute('aria-selected', 'true');
  await expect(everyone).toHaveAttribute('aria-selected', 'false');
  await expect(postCard(page, followedText)).toBeVisible();
  const ownText = uniquePostText('My own');
  await writePost(page, ownText);
  await expect(postCard(page, strangerText)).toHaveCount(0);

  // Newest first: my post, then the friend's.
  const cards = postCards(page);
  await expect(cards.nth(0)).toContainText(ownText);
  await expect(cards.nth(1)).toContainText(followedText);

  // The tabs are a keyboard-operable tab list.
  await following.focus();
  await page.keyboard.press('ArrowRight');
  await expect(everyone).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(everyone).toHaveAttribute('aria-selected', 'true');
  // Everyone is shared with every test running now: its posts may be a page further down.
  for (const text of [ownText, strangerText, followedText]) await findInFeed(page, text);
  expect(problems).toEqual([]);
});

test('a long Following feed pages on as the reader scrolls, skipping and repeating nothing', async ({
  page,
  createUser,
  login,
  createPost,
  follow,
}) => {
  const reader = await createUser();
  const author = await createUser();
  await follow(reader, author);
  const total = limits.page.default + 5;
  const texts: string[] = [];
  const prefix = uniquePostText('Page');
  for (let index = 0; index < total; index += 1) {
    const text = `${prefix} number ${String(index).padStart(2, '0')}`;
    texts.push(text);
    await createPost(author, { body: text });
  }
  await login(page, reader);
  await page.goto('/feed');
  const cards = postCards(page).filter({ hasText: prefix });
  await expect(cards.first()).toContainText(texts[total - 1] ?? '');
  await expect(cards).toHaveCount(limits.page.default);

  // Scrolling to the end brings the next page by itself.
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(total);
  await expect(page.getByText('You’ve reached the end.')).toBeVisible();
  const shown = await cards.allTextContents();
  texts.forEach((text, index) => {
    expect(shown[total - 1 - index]).toContain(text);
  });
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test('the Load more button works without scrolling', async ({
  page,
  createUser,
  login,
  createPost,
  follow,
}) => {
  const reader = await createUser();
  const author = await createUser();
  await follow(reader, author);
  const total = limits.page.default + 2;
  const prefix = uniquePostText('Button');
  for (let index = 0; index < total; index += 1) {
    await createPost(author, { body: `${prefix} ${String(index)}` });
  }
  // Keyboard users reach the button by focus alone (it may also start infinite scroll; either way
  // the next page comes exactly once).
  await login(page, reader);
  await page.goto('/feed');
  const cards = postCards(page).filter({ hasText: prefix });
  await expect(cards).toHaveCount(limits.page.default);
  const loadMore = page.getByRole('button', { name: 'Load more' });
  await loadMore.focus();
  await page.keyboard.press('Enter');
  await expect(cards).toHaveCount(total);
});

test('a hashtag link shows the Everyone feed of that tag only', async ({
  page,
  createUser,
  createPost,
}) => {
  const author = await createUser();
  const tag = `t${uniquePostText('')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;
  const tagged = uniquePostText('Tagged');
  const untagged = uniquePostText('Untagged');
  await createPost(author, { body: `${tagged} #${tag}` });
  await createPost(author, { body: untagged });
  await page.goto(`/feed?tag=${tag}`);
  await expect(page).toHaveURL(pathIs(`/tags/${tag}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${tag}`);
  await expect(postCard(page, tagged)).toBeVisible();
  await expect(postCard(page, untagged)).toHaveCount(0);
});
