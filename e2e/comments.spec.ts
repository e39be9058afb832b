import { limits } from '../src/shared/limits.js';
import type { Page } from '@playwright/test';
import { expect, test, uniquePostText, type HearthFixtures } from './fixtures.js';
import type { PageElement } from './support/page-globals.js';
import {
  commentBox,
  commentItem,
  commentThread,
  confirmDelete,
  likeButton,
  likeCount,
  postCard,
  writeComment,
} from './support/posts.js';
import { collectPageProblems } from './support/ui.js';

/** A new post by one person, open in `page` for another, who is signed in. */
async function openAsReader({
  page,
  createUser,
  login,
  createPost,
}: Pick<HearthFixtures, 'createUser' | 'login' | 'createPost'> & { page: Page }) {
  const author = await createUser();
  const reader = await createUser();
  const post = await createPost(author);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);
  return post;
}

// Likes and comments on the single post page (issue: posts §3, §4).

test('a reader likes a post, comments, replies to a comment, and it all stays after a reload', async ({
  page,
  createUser,
  login,
  createPost,
  createComment,
}) => {
  const problems = collectPageProblems(page);
  const author = await createUser();
  const reader = await createUser();
  const text = uniquePostText('Comment on me');
  const post = await createPost(author, { body: text });
  const authorComment = uniquePostText('Author says');
  const parent = await createComment(author, post.id, authorComment);
  const authorReply = uniquePostText('Author adds');
  await createComment(author, post.id, authorReply, parent.id);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, text);
  await expect(card).toBeVisible();

  // issue §4: a toggle button with aria-pressed, optimistic.
  const like = likeButton(card);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(likeCount(card, 1)).toBeVisible();

  const own = uniquePostText('Nice one');
  await writeComment(page, own);
  await expect(commentBox(page)).toHaveValue('');

  // issue §3: replies one level deep, under the comment they answer.
  const thread = commentThread(page, authorComment);
  await commentItem(page, authorComment)
    .getByRole('button', { name: 'Reply', exact: true })
    .click();
  const replyBox = thread.getByRole('textbox', { name: 'Write a reply' });
  await expect(replyBox).toBeFocused();
  const reply = uniquePostText('Replying');
  await replyBox.fill(reply);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  const replyItem = commentItem(thread, reply);
  await expect(replyItem).toBeVisible();
  await expect(replyItem).toHaveAccessibleName(`Reply by ${reader.displayName}`);

  // Answering a reply joins the same thread and greets whoever wrote it.
  await commentItem(thread, authorReply)
    .getByRole('button', { name: 'Reply', exact: true })
    .click();
  await expect(replyBox).toBeFocused();
  await expect(replyBox).toHaveValue(`@${author.username} `);
  const second = uniquePostText('Answering you');
  await replyBox.pressSequentially(second);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  const secondItem = commentItem(thread, second);
  await expect(secondItem).toHaveAccessibleName(`Reply by ${reader.displayName}`);
  await expect(secondItem.getByRole('link', { name: `@${author.username}` })).toHaveAttribute(
    'href',
    `/${author.username}`,
  );

  // Newest last.
  const order = await page.getByRole('article', { name: /^Comment by / }).allTextContents();
  const authorAt = order.findIndex((item) => item.includes(authorComment));
  const ownAt = order.findLastIndex((item) => item.includes(own));
  expect(authorAt).toBeGreaterThanOrEqual(0);
  expect(ownAt).toBeGreaterThan(authorAt);

  await page.reload();
  await expect(likeButton(postCard(page, text))).toHaveAttribute('aria-pressed', 'true');
  await expect(commentItem(page, own)).toBeVisible();
  await expect(commentItem(page, reply)).toBeVisible();
  await expect(commentItem(commentThread(page, authorComment), second)).toBeVisible();
  await expect(postCard(page, text)).toContainText(/5 comments/);

  // Unlike. The screen changes at once; the reload waits for the server's answer, as a read sent while
  // the write is still being saved may find the like still there.
  const unliked = page.waitForResponse(
    (response) => response.url().endsWith('/like') && response.request().method() === 'DELETE',
  );
  await likeButton(postCard(page, text)).click();
  await expect(likeButton(postCard(page, text))).toHaveAttribute('aria-pressed', 'false');
  expect((await unliked).ok()).toBe(true);
  await page.reload();
  await expect(likeButton(postCard(page, text))).toHaveAttribute('aria-pressed', 'false');
  expect(problems).toEqual([]);
});

test('an author edits and deletes their own comment', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const post = await openAsReader({ page, createUser, login, createPost });
  const first = uniquePostText('Typo here');
  await writeComment(page, first);
  const item = commentItem(page, first);

  await item.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  const editor = page.getByRole('textbox', { name: 'Edit comment' });
  await expect(editor).toHaveValue(first);
  const fixed = uniquePostText('Fixed');
  await editor.fill(fixed);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const edited = commentItem(page, fixed);
  await expect(edited).toBeVisible();
  await expect(edited.getByText(/edited/i).first()).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);

  await edited.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await confirmDelete(page, 'comment');
  await expect(page.getByRole('heading', { name: 'Comments', exact: true })).toBeFocused();
  await expect(page.getByText(fixed)).toHaveCount(0);
  await page.reload();
  await expect(postCard(page, post.body)).toBeVisible();
  await expect(page.getByText(fixed)).toHaveCount(0);
});

test('a comment just written keeps its element and its open menu when the list is read again', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const post = await openAsReader({ page, createUser, login, createPost });
  await expect(page.getByText('No comments yet.', { exact: false })).toBeVisible();
  // The list's next read is held until the new comment is on screen with its menu open, so the read
  // that brings the comment into the loaded pages lands after that, every time.
  const releases: (() => void)[] = [];
  const held = new Promise<void>((resolve) => {
    releases.push(resolve);
  });
  await page.route(`**/api/posts/${post.id}/comments*`, async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.continue();
  });
  const text = uniquePostText('Steady');
  await writeComment(page, text);
  const item = commentItem(page, text);
  // A mark on the element itself: an element rendered afresh would not carry it.
  await item.evaluate((element: unknown) => {
    (element as PageElement).setAttribute('data-e2e-mark', 'kept');
  });
  await item.getByRole('button', { name: 'More', exact: true }).click();
  const edit = page.getByRole('menuitem', { name: 'Edit', exact: true });
  await expect(edit).toBeVisible();

  const reread = page.waitForResponse(
    (response) =>
      response.url().includes(`/api/posts/${post.id}/comments`) &&
      response.request().method() === 'GET',
  );
  for (const release of releases) release();
  const answer = await reread;
  expect(JSON.stringify(await answer.json())).toContain(text);
  // The form reports success once the read is in the list: the comment is now one of the loaded
  // pages, and still the same element, its menu still open.
  await expect(page.getByText('Comment posted.', { exact: true })).toBeVisible();
  await expect(edit).toBeVisible();
  await expect(item).toHaveAttribute('data-e2e-mark', 'kept');
  await edit.click();
  await expect(page.getByRole('textbox', { name: 'Edit comment' })).toHaveValue(text);
});

test('an empty or over-long comment is refused on the field', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const author = await createUser();
  const post = await createPost(author);
  await login(page, author);
  await page.goto(`/post/${post.id}`);
  const box = commentBox(page);
  const submit = page.getByRole('button', { name: 'Comment', exact: true });
  await submit.click();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(box).toHaveAccessibleDescription(/Write a comment first/);

  await box.fill('y'.repeat(limits.comment.max + 1));
  await expect(
    page.getByText(`${String(limits.comment.max + 1)} / ${String(limits.comment.max)}`),
  ).toBeVisible();
  await submit.click();
  await expect(box).toHaveAccessibleDescription(/Keep comments to 2,000 characters/);
});

test('a comment can be liked', async ({ page, createUser, login, createPost, createComment }) => {
  const author = await createUser();
  const reader = await createUser();
  const post = await createPost(author);
  const text = uniquePostText('Likeable');
  await createComment(author, post.id, text);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);
  const item = commentItem(page, text);
  const like = likeButton(item);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(likeButton(commentItem(page, text))).toHaveAttribute('aria-pressed', 'true');
});

test('a long thread loads older comments on request', async ({
  page,
  createUser,
  createPost,
  createComment,
}) => {
  const author = await createUser();
  const post = await createPost(author);
  const prefix = uniquePostText('Thread');
  const total = limits.page.default + 3;
  for (let index = 0; index < total; index += 1) {
    await createComment(author, post.id, `${prefix} no${String(index).padStart(2, '0')}`);
  }
  await page.goto(`/post/${post.id}`);
  const items = page.getByRole('article', { name: /^Comment by / }).filter({ hasText: prefix });
  await expect(items).toHaveCount(limits.page.default);
  await page.getByRole('button', { name: 'Load more comments' }).click();
  await expect(items).toHaveCount(total);
  const shown = await items.allTextContents();
  shown.forEach((item, index) => {
    expect(item).toContain(`${prefix} no${String(index).padStart(2, '0')}`);
  });
});
