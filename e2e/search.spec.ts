import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test } from './fixtures.js';
import { tabTo } from './support/keyboard.js';
import { expectNoSidewaysScroll } from './support/layout.js';
import { postCard, postCards } from './support/posts.js';
import { pathIs } from './support/ui.js';

// Search and tags (issue: notifications and search §3, "Must show"): a person found as the name is typed,
// a post by a word from its middle and by from:, the tag pages, bad input answered plainly, keyboard
// alone and axe on every page.

/** Letters only, so both databases' tokenizers read it as one word no other test writes. */
function uniqueWord(prefix: string): string {
  const letters = Array.from(randomBytes(10), (byte) => String.fromCharCode(97 + (byte % 26)));
  return `${prefix}${letters.join('')}`;
}

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search' });
}

test('the / key opens search, and a person is found as their name is typed', async ({
  page,
  createUser,
}) => {
  const name = uniqueWord('Zeph');
  const person = await createUser({ firstName: name, lastName: 'Quill' });
  await page.goto('/feed');
  await expect(page.getByRole('heading', { level: 1, name: 'Feed' })).toBeVisible();
  // A shortcut, typed with nothing focused (never while typing in a field).
  await page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: { activeElement: { blur?: () => void } | null };
    };
    document.activeElement?.blur?.();
  });
  await page.keyboard.press('/');
  await expect(page).toHaveURL(pathIs('/search'));
  await expect(searchBox(page)).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Today’s tags' })).toBeVisible();
  await expectNoA11yViolations(page, 'search, empty');

  // Typed a letter at a time, as people type: the results follow, and the address keeps the text.
  await page.keyboard.type(name.slice(0, 9).toLowerCase(), { delay: 40 });
  const link = page.getByRole('link', { name: `${name} Quill` });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `/${person.username}`);
  await expect(page.getByText(`@${person.username}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?q=${name.slice(0, 9).toLowerCase()}$`));
  await expectNoA11yViolations(page, 'search, people');

  // By username too, with the @ people often type.
  await searchBox(page).fill(`@${person.username}`);
  await expect(link).toBeVisible();

  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(pathIs(`/${person.username}`));
});

test('posts are found by a word from their middle and by from:, and stay out for others', async ({
  page,
  createUser,
  createPost,
}) => {
  const author = await createUser();
  const other = await createUser();
  const word = uniqueWord('mid');
  const text = `Baking notes: the ${word} loaf rose overnight`;
  await createPost(author, { body: text });
  await createPost(other, { body: `Not this one, though it says ${word} as well` });

  await page.goto(`/search?q=${word}&tab=posts`);
  await expect(postCard(page, 'the ' + word + ' loaf')).toBeVisible();
  await expect(postCards(page)).toHaveCount(2);
  await expectNoA11yViolations(page, 'search, posts');

  // from: keeps one person's posts; typed into the box, the address follows.
  await searchBox(page).fill(`from:${author.username} ${word}`);
  await expect(postCards(page)).toHaveCount(1);
  await expect(postCard(page, 'the ' + word + ' loaf')).toBeVisible();
  await expect(page).toHaveURL(/tab=posts/);

  // A quoted phrase matches as written.
  await searchBox(page).fill(`"${word} loaf rose"`);
  await expect(postCards(page)).toHaveCount(1);
  await searchBox(page).fill(`"loaf ${word}"`);
  await expect(page.getByRole('heading', { name: 'No posts found' })).toBeVisible();

  // Switching tabs by keyboard keeps the text.
  await searchBox(page).fill(word);
  await page.getByRole('tab', { name: 'Posts' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`\\?q=${word}$`));
});

test('an edited post is found by its new words, a deleted one not at all', async ({
  page,
  createUser,
  createPost,
  apiAs,
}) => {
  const author = await createUser();
  const before = uniqueWord('old');
  const after = uniqueWord('new');
  const post = await createPost(author, { body: `Draft about ${before}` });
  const api = await apiAs(author);
  const edited = await api.patch(`/api/posts/${post.id}`, {
    data: { body: `Final about ${after}` },
  });
  expect(edited.status(), await edited.text()).toBe(200);

  await page.goto(`/search?q=${after}&tab=posts`);
  await expect(postCard(page, `Final about ${after}`)).toBeVisible();
  await page.goto(`/search?q=${before}&tab=posts`);
  await expect(page.getByRole('heading', { name: 'No posts found' })).toBeVisible();

  expect((await api.delete(`/api/posts/${post.id}`)).status()).toBe(204);
  await page.goto(`/search?q=${after}&tab=posts`);
  await expect(page.getByRole('heading', { name: 'No posts found' })).toBeVisible();
});

test('bad searches get a plain answer, never a failure', async ({ page }) => {
  await page.goto('/search?tab=posts');
  await searchBox(page).fill('a'.repeat(201));
  await expect(page.getByText('Keep searches to 200 characters.')).toBeVisible();
  await expect(searchBox(page)).toHaveAttribute('aria-invalid', 'true');

  for (const hostile of ['"unbalanced NEAR *', "') OR 1=1 --", 'from:', '#', '^ ( ) : -']) {
    await searchBox(page).fill(hostile);
    await expect(
      page
        .getByRole('heading', { name: 'No posts found' })
        .or(postCards(page).first())
        .or(page.getByRole('heading', { name: 'Today’s tags' }))
        // A query with nothing to search for is a 400 whose reason shows in place of results.
        .or(page.getByRole('tabpanel').getByRole('alert')),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'We couldn’t search posts' })).toHaveCount(0);
  }
});

test('/tags/{tag} lists the tagged posts; hashtags and old feed addresses lead there', async ({
  page,
  createUser,
  createPost,
}) => {
  const author = await createUser();
  const tag = uniqueWord('t');
  const tagged = `Tagged ${uniqueWord('p')} #${tag}`;
  const untagged = `Untagged ${uniqueWord('p')} ${tag}`;
  await createPost(author, { body: tagged });
  await createPost(author, { body: untagged });

  await page.goto(`/tags/${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: `#${tag}` })).toBeVisible();
  await expect(postCard(page, tagged)).toBeVisible();
  await expect(postCard(page, untagged)).toHaveCount(0);
  await expect(page).toHaveTitle(new RegExp(`^#${tag} · `));
  await expectNoA11yViolations(page, 'tag page');

  // A hashtag in a post leads to the tag's own address.
  const hashtag = postCard(page, tagged).getByRole('link', { name: `#${tag}` });
  await expect(hashtag).toHaveAttribute('href', `/tags/${tag}`);

  // The address the feed used to have still works, and any spelling of a tag finds its one page.
  await page.goto(`/feed?tag=${tag}`);
  await expect(page).toHaveURL(pathIs(`/tags/${tag}`));
  await page.goto(`/tags/${tag.toUpperCase()}`);
  await expect(page).toHaveURL(pathIs(`/tags/${tag}`));
  await page.goto('/tags/not-a-tag');
  await expect(page.getByRole('heading', { name: 'That’s not a hashtag' })).toBeVisible();
});

test('the day’s tags on the empty search page lead to tag pages', async ({
  page,
  createUser,
  createPost,
}) => {
  // The server works the day's tags out at most once a minute, so a new tag may take that long to show.
  test.setTimeout(120_000);
  const author = await createUser();
  const friend = await createUser();
  const tag = uniqueWord('t');
  await createPost(author, { body: `Market day #${tag}` });
  await createPost(friend, { body: `Also #${tag}` });
  await createPost(friend, { body: `Once more #${tag}` });

  const trending = page.getByRole('region', { name: 'Today’s tags' });
  const ours = trending.getByRole('link', { name: `#${tag}` });
  const item = trending.getByRole('listitem').filter({ hasText: `#${tag}` });
  await expect(async () => {
    await page.goto('/search');
    await expect(item).toContainText('3 posts by 2 people', { timeout: 2_000 });
  }).toPass({ timeout: 90_000, intervals: [5_000] });
  await expect(ours).toHaveAttribute('href', `/tags/${tag}`);
  await tabTo(page, ours);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(pathIs(`/tags/${tag}`));
  await expect(page.getByText('Today: 3 posts by 2 people.')).toBeVisible();
});

test('search fits a 360px screen in the dark', async ({ page, createUser }) => {
  const name = uniqueWord('Narrow');
  await createUser({ firstName: name });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/search?q=${name.slice(0, 8)}`);
  await expect(page.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoA11yViolations(page, 'search at 360px, dark');
});
