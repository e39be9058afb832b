import { expect, type Locator, type Page } from '@playwright/test';
import { escapeRegExp } from './ui.js';

// Locators for posts, comments, the feed and follows, by the accessible names the issue fixes
// (issue: posts §1–§6). Anything else is found by role and visible text.

/** The composer's textbox (issue §1: "Write a post"). */
export function composer(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Write a post' });
}

/** The composer's submit button (issue §1: "Post"). */
export function postButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Post', exact: true });
}

/** The post whose text contains `text` (each spec writes texts no other test writes). */
export function postCard(scope: Page | Locator, text: string): Locator {
  return postCards(scope).filter({ hasText: text }).first();
}

/** Every post shown in a scope, in order (each is an article named "Post by …"). */
export function postCards(scope: Page | Locator): Locator {
  return scope.getByRole('article', { name: /^Post by / });
}

/**
 * Scrolls a feed until the post shows. The Everyone feed is shared by every test running at the same
 * time, so a post written a moment ago may already be a page further down.
 */
export async function findInFeed(page: Page, text: string): Promise<Locator> {
  const card = postCard(page, text);
  const cards = postCards(page);
  await expect(cards.first()).toBeVisible();
  await expect(async () => {
    if (await card.isVisible()) return;
    // Near the end, infinite scroll asks for the next page.
    await cards.last().scrollIntoViewIfNeeded();
    await expect(card).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  return card;
}

/** Writes a post through the composer and waits for it to show up. */
export async function writePost(page: Page, text: string): Promise<Locator> {
  await composer(page).fill(text);
  await postButton(page).click();
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  await expect(composer(page)).toHaveValue('');
  return card;
}

/** A feed tab (issue §6: role="tab", "Following" and "Everyone"). */
export function feedTab(page: Page, name: 'Following' | 'Everyone'): Locator {
  return page.getByRole('tab', { name, exact: true });
}

/** The "Show N new posts" button (issue §6). */
export function newPostsButton(page: Page, count?: number): Locator {
  const name =
    count === undefined
      ? /^Show \d+ new posts?$/
      : new RegExp(`^Show ${String(count)} new posts?$`);
  return page.getByRole('button', { name });
}

/** A post's Like toggle (issue §4: aria-pressed). */
export function likeButton(card: Locator): Locator {
  return card.getByRole('button', { name: 'Like', exact: true }).first();
}

/** Text saying how many likes something has ("1 like", "2 likes"). */
export function likeCount(scope: Locator, count: number): Locator {
  return scope.getByText(new RegExp(`^${String(count)} likes?$`)).first();
}

/** Opens a post's "More" menu and chooses one of its items. */
export async function choosePostAction(
  page: Page,
  card: Locator,
  action: 'Edit' | 'Delete',
): Promise<void> {
  await card.getByRole('button', { name: 'More', exact: true }).first().click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** The confirmation a deletion asks for ("Delete this post?", "Delete this comment?"). */
export function deleteDialog(page: Page, what: 'post' | 'comment' = 'post'): Locator {
  return page.getByRole('dialog', { name: `Delete this ${what}?` });
}

/** Confirms a deletion in its dialog. */
export async function confirmDelete(page: Page, what: 'post' | 'comment' = 'post'): Promise<void> {
  const dialog = deleteDialog(page, what);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The comment whose text contains `text`. */
export function commentItem(scope: Page | Locator, text: string): Locator {
  return scope
    .getByRole('article', { name: /^(Comment|Reply) by / })
    .filter({ hasText: text })
    .last();
}

/** A top-level comment together with its replies (the list item holding both). */
export function commentThread(page: Page, text: string): Locator {
  return page
    .getByRole('listitem')
    .filter({
      has: page.getByRole('article', { name: /^Comment by / }).filter({ hasText: text }),
    })
    .first();
}

/** The comment box under a post (issue §3: "Write a comment"). */
export function commentBox(scope: Page | Locator): Locator {
  return scope.getByRole('textbox', { name: 'Write a comment' });
}

/** Writes a comment and waits for it to show up. */
export async function writeComment(page: Page, text: string): Promise<void> {
  await commentBox(page).fill(text);
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(commentItem(page, text)).toBeVisible();
}

/** The Follow / Following toggle of a profile (issue §5). */
export function followButton(page: Page): Locator {
  return page.getByRole('main').getByRole('button', { name: /^(Follow|Following)$/ });
}

/** The profile's counts list: "1 post", "2 followers", "0 following". */
export function profileCounts(page: Page): Locator {
  return page.getByRole('list', { name: 'Activity' });
}

/** One count's text, e.g. countText(1, 'post') matches "1 post", countText(2, 'follower') "2 followers". */
export function countText(count: number, noun: 'post' | 'follower' | 'following'): RegExp {
  const word = count === 1 || noun === 'following' ? noun : `${noun}s`;
  return new RegExp(`^\\s*${String(count)}\\s+${escapeRegExp(word)}\\s*$`);
}

/** The item of the profile's counts list that reads e.g. "1 post". */
export function profileCount(
  page: Page,
  count: number,
  noun: 'post' | 'follower' | 'following',
): Locator {
  return profileCounts(page)
    .getByRole('listitem')
    .filter({ hasText: countText(count, noun) });
}
