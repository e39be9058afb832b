import type { Locator } from '@playwright/test';
import { postPath } from '../src/shared/paths.js';
import { expect, test, uniquePostText } from './fixtures.js';
import {
  choosePostAction,
  commentItem,
  composer,
  confirmDelete,
  feedTab,
  likeButton,
  likeCount,
  newPostsButton,
  postCard,
  postCards,
  writeComment,
  writePost,
} from './support/posts.js';
import { collectPageProblems, expectSameDocument, markDocument } from './support/ui.js';

// Live updates (issue: posts §6, §7): two people in two browsers see each other's actions without
// reloading. Each browser is its own context (own cookies, own client address).

/** Where an element sits in the viewport: it must not move while the reader looks at it. */
async function viewportTop(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  expect(box, 'the element is on screen').not.toBeNull();
  return box?.y ?? Number.NaN;
}

test('a new post reaches a reader as "Show 1 new post", which moves nothing until clicked', async ({
  page,
  newPage,
  createUser,
  login,
  createPost,
  follow,
}) => {
  const author = await createUser();
  const reader = await createUser();
  await follow(reader, author);
  const older = uniquePostText('Already here');
  await createPost(author, { body: older });

  const readerPage = await newPage();
  const problems = collectPageProblems(readerPage);
  await login(readerPage, reader);
  await readerPage.goto('/feed');
  await expect(feedTab(readerPage, 'Following')).toHaveAttribute('aria-selected', 'true');
  const olderCard = postCard(readerPage, older);
  await expect(olderCard).toBeVisible();
  // The composer's code arrives on its own and may land after the posts: measure once it is in.
  await expect(composer(readerPage)).toBeVisible();
  await markDocument(readerPage);
  const before = await viewportTop(olderCard);

  await login(page, author);
  await page.goto('/feed');
  const fresh = uniquePostText('Just posted');
  await writePost(page, fresh);

  const button = newPostsButton(readerPage, 1);
  await expect(button).toBeVisible();
  await expect(button).toHaveAccessibleName('Show 1 new post');
  await expect(postCard(readerPage, fresh)).toHaveCount(0);
  await expect(postCards(readerPage).first()).toContainText(older);
  expect(await viewportTop(olderCard)).toBeCloseTo(before, 0);

  await button.click();
  await expect(postCards(readerPage).first()).toContainText(fresh);
  await expect(button).toHaveCount(0);
  await expectSameDocument(readerPage);
  expect(problems).toEqual([]);
});

test('a reader scrolled down the feed stays where they are when new posts arrive', async ({
  page,
  createUser,
  login,
  createPost,
  follow,
}) => {
  const author = await createUser();
  const reader = await createUser();
  await follow(reader, author);
  const prefix = uniquePostText('Scroll');
  for (let index = 0; index < 8; index += 1) {
    await createPost(author, { body: `${prefix} ${String(index)}` });
  }
  await login(page, reader);
  await page.goto('/feed');
  await expect(composer(page)).toBeVisible();
  const reading = postCard(page, `${prefix} 3`);
  // Far enough down that the top of the feed is out of sight.
  await reading.scrollIntoViewIfNeeded();
  await expect(feedTab(page, 'Following')).not.toBeInViewport();
  await expect(reading).toBeInViewport();
  await markDocument(page);
  const before = await viewportTop(reading);

  await createPost(author, { body: uniquePostText('Arrives') });
  await createPost(author, { body: uniquePostText('Arrives too') });
  await expect(newPostsButton(page, 2)).toBeVisible();
  expect(await viewportTop(reading)).toBeCloseTo(before, 0);
  await expectSameDocument(page);
});

test('two people on the same post see likes, comments, an edit and the deletion live', async ({
  page,
  newPage,
  createUser,
  login,
  createPost,
}) => {
  const author = await createUser();
  const reader = await createUser();
  const text = uniquePostText('Watched closely');
  const post = await createPost(author, { body: text });

  const authorProblems = collectPageProblems(page);
  await login(page, author);
  await page.goto(postPath(post.id));
  const authorCard = postCard(page, text);
  await expect(authorCard).toBeVisible();
  await markDocument(page);

  const readerPage = await newPage();
  const readerProblems = collectPageProblems(readerPage);
  await login(readerPage, reader);
  await readerPage.goto(postPath(post.id));
  await expect(postCard(readerPage, text)).toBeVisible();
  await markDocument(readerPage);

  // The reader likes: the author's page counts it.
  await likeButton(postCard(readerPage, text)).click();
  await expect(likeButton(postCard(readerPage, text))).toHaveAttribute('aria-pressed', 'true');
  await expect(likeCount(authorCard, 1)).toBeVisible();
  // The author's own Like stays theirs: not pressed.
  await expect(likeButton(authorCard)).toHaveAttribute('aria-pressed', 'false');

  // Each comments: the other sees it.
  const fromReader = uniquePostText('Reader comment');
  await writeComment(readerPage, fromReader);
  await expect(commentItem(page, fromReader)).toBeVisible();
  const fromAuthor = uniquePostText('Author reply');
  await writeComment(page, fromAuthor);
  await expect(commentItem(readerPage, fromAuthor)).toBeVisible();

  // The author edits: the reader sees the new text and "edited".
  await choosePostAction(page, authorCard, 'Edit');
  const edited = uniquePostText('Watched, edited');
  await page.getByRole('textbox', { name: 'Edit post' }).fill(edited);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const readerEdited = postCard(readerPage, edited);
  await expect(readerEdited).toBeVisible();
  await expect(readerEdited.getByText(/edited/i).first()).toBeVisible();

  // The author deletes: the reader's page says the post is gone.
  await choosePostAction(page, postCard(page, edited), 'Delete');
  await confirmDelete(page);
  await expect(postCard(readerPage, edited)).toHaveCount(0);
  await expect(
    readerPage.getByRole('heading', { level: 1, name: 'This post was deleted' }),
  ).toBeVisible();

  await expectSameDocument(readerPage);
  await expectSameDocument(page);
  expect(authorProblems).toEqual([]);
  expect(readerProblems).toEqual([]);
});

test("a reader's feed follows likes, comment counts, edits and deletions of the posts it shows", async ({
  page,
  newPage,
  createUser,
  login,
  createPost,
  createComment,
  follow,
}) => {
  // Three people, each signing in through the form in a browser of their own: slow on a busy machine.
  test.slow();
  const author = await createUser();
  const reader = await createUser();
  const fan = await createUser();
  await follow(reader, author);
  const text = uniquePostText('On the feed');
  const post = await createPost(author, { body: text });

  await login(page, reader);
  await page.goto('/feed');
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  await markDocument(page);

  // Someone else likes and comments, in their own browser.
  const fanPage = await newPage();
  await login(fanPage, fan);
  await fanPage.goto(postPath(post.id));
  await likeButton(postCard(fanPage, text)).click();
  await expect(likeCount(card, 1)).toBeVisible();
  await createComment(fan, post.id, uniquePostText('Hello'));
  await expect(card).toContainText(/1 comment\b/);

  // The author edits, then deletes, in their own browser.
  const authorPage = await newPage();
  await login(authorPage, author);
  await authorPage.goto(postPath(post.id));
  await choosePostAction(authorPage, postCard(authorPage, text), 'Edit');
  const edited = uniquePostText('On the feed, edited');
  await authorPage.getByRole('textbox', { name: 'Edit post' }).fill(edited);
  await authorPage.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(postCard(page, edited)).toBeVisible();

  await choosePostAction(authorPage, postCard(authorPage, edited), 'Delete');
  await confirmDelete(authorPage);
  await expect(postCard(page, edited)).toHaveCount(0);
  await expectSameDocument(page);
});
