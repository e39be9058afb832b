import { limits } from '../src/shared/limits.js';
import { expect, test, uniquePostText } from './fixtures.js';
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

  // Unlike.
  await likeButton(postCard(page, text)).click();
  await expect(likeButton(postCard(page, text))).toHaveAttribute('aria-pressed', 'false');
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
  const author = await createUser();
  const reader = await createUser();
  const post = await createPost(author);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);
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
