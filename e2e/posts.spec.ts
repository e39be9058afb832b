import { limits } from '../src/shared/limits.js';
import { expect, test, uniquePostText } from './fixtures.js';
import { fakePngFile, jpegFile, pngFile } from './support/images.js';
import {
  choosePostAction,
  commentBox,
  composer,
  confirmDelete,
  deleteDialog,
  findInFeed,
  likeButton,
  feedTab,
  postButton,
  postCard,
  profileCount,
} from './support/posts.js';
import { collectPageProblems, inactiveNotice, notFoundHeading, pathIs } from './support/ui.js';

// Posts (issue: posts §1, §2): writing with images and alt text, editing, deleting, safe text, the
// single post page, and what an inactive account is told.

test('a post with two images and their alt text shows in both feed tabs and on the profile, with counts', async ({
  page,
  createUser,
  login,
}) => {
  const problems = collectPageProblems(page);
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  const text = uniquePostText('Sunset walk');
  await composer(page).fill(text);
  await expect(page.getByText(`${String(text.length)} / ${String(limits.post.max)}`)).toBeVisible();

  await page
    .getByLabel('Add images')
    .setInputFiles([await pngFile('square.png', 400, 400), await jpegFile('hills.jpg', 1200, 600)]);
  const alts = page.getByLabel(/Alt text/);
  await expect(alts).toHaveCount(2);
  // A gentle reminder under each image without a description, gone once it has one.
  const reminders = page.getByText(/No alt text yet/);
  await expect(reminders).toHaveCount(2);
  await expect(alts.nth(0)).toHaveAccessibleDescription(/No alt text yet/);
  await alts.nth(0).fill('A red square');
  await expect(reminders).toHaveCount(1);
  await alts.nth(1).fill('Warm hills at dusk');
  await expect(reminders).toHaveCount(0);
  await postButton(page).click();

  // Following is the default tab when signed in, and it includes your own posts.
  await expect(feedTab(page, 'Following')).toHaveAttribute('aria-selected', 'true');
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  await expect(composer(page)).toHaveValue('');
  await expect(card.getByRole('img', { name: 'A red square' })).toHaveAttribute(
    'src',
    /^\/media\//,
  );
  await expect(card.getByRole('img', { name: 'Warm hills at dusk' })).toHaveAttribute(
    'src',
    /^\/media\//,
  );
  await expect(card.getByRole('link', { name: user.displayName }).first()).toHaveAttribute(
    'href',
    `/${user.username}`,
  );

  await feedTab(page, 'Everyone').click();
  await expect(feedTab(page, 'Everyone')).toHaveAttribute('aria-selected', 'true');
  await findInFeed(page, text);

  await page.goto(`/${user.username}`);
  await expect(profileCount(page, 1, 'post')).toBeVisible();
  await expect(profileCount(page, 0, 'follower')).toBeVisible();
  await expect(profileCount(page, 0, 'following')).toBeVisible();
  await expect(postCard(page, text).getByRole('img', { name: 'A red square' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('the single post page shows the post, opens its images full size by keyboard, and names itself', async ({
  page,
  createUser,
  createPost,
}) => {
  const problems = collectPageProblems(page);
  const author = await createUser();
  const text = uniquePostText('Harbour lights');
  const post = await createPost(author, {
    body: text,
    images: [{ file: await jpegFile('harbour.jpg', 1600, 900), alt: 'Boats in a harbour' }],
  });

  const response = await page.goto(`/post/${post.id}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(new RegExp(author.displayName));
  const card = postCard(page, text);
  await expect(card).toBeVisible();

  // issue §2: a keyboard-accessible full-size viewer.
  const image = card.getByRole('img', { name: 'Boats in a harbour' });
  await expect(image).toBeVisible();
  const opener = card.getByRole('button', { name: /Boats in a harbour.*view full size/ });
  await opener.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: /from .*'s post$/ });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'Boats in a harbour' })).toHaveAttribute(
    'src',
    post.images[0]?.fullUrl ?? '',
  );
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(opener).toBeFocused();
  expect(problems).toEqual([]);
});

test('text is shown as text: links, mentions and hashtags become links, HTML stays text', async ({
  page,
  createUser,
  createPost,
}) => {
  const author = await createUser();
  const friend = await createUser();
  const tag = `tag${uniquePostText('')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;
  const marker = uniquePostText('Safe');
  const body = `${marker} <b>bold</b><script>window.__pwned = 1</script> hi @${friend.username} #${tag} https://example.org/a`;
  const post = await createPost(author, { body });
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, marker);
  await expect(card).toContainText('<b>bold</b><script>');
  await expect(card.locator('b, script')).toHaveCount(0);
  await expect(card.getByRole('link', { name: `@${friend.username}` })).toHaveAttribute(
    'href',
    `/${friend.username}`,
  );
  await expect(card.getByRole('link', { name: `#${tag}` })).toHaveAttribute('href', `/tags/${tag}`);
  await expect(card.getByRole('link', { name: 'https://example.org/a' })).toHaveAttribute(
    'href',
    'https://example.org/a',
  );

  await card.getByRole('link', { name: `#${tag}` }).click();
  await expect(page).toHaveURL(pathIs(`/tags/${tag}`));
  await expect(postCard(page, marker)).toBeVisible();
});

test('an over-long post is refused on the field and nothing is posted', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/posts')) posts += 1;
  });
  await composer(page).fill('x'.repeat(limits.post.max + 1));
  await expect(
    page.getByText(`${String(limits.post.max + 1)} / ${String(limits.post.max)}`),
  ).toBeVisible();
  if (await postButton(page).isEnabled()) {
    await postButton(page).click();
    await expect(composer(page)).toHaveAttribute('aria-invalid', 'true');
  }
  expect(posts).toBe(0);
});

test('a fifth image is left out, and a post with a refused image is not created at all', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  const text = uniquePostText('With a bad picture');
  await composer(page).fill(text);
  const files = await Promise.all(
    [1, 2, 3, 4, 5].map((index) => pngFile(`p${String(index)}.png`, 64, 64)),
  );
  await page.getByLabel('Add images').setInputFiles(files);
  await expect(page.getByLabel(/Alt text/)).toHaveCount(limits.post.maxImages);
  await expect(page.getByText('A post can have 4 images; 1 was left out.')).toBeVisible();

  // Down to one good image and one text file named .png: the server reads the bytes and refuses it.
  for (let index = 0; index < 3; index += 1) {
    await page.getByRole('button', { name: 'Remove image 1' }).click();
  }
  await page.getByLabel('Add images').setInputFiles(fakePngFile('notes.png'));
  await expect(page.getByLabel(/Alt text/)).toHaveCount(2);
  await postButton(page).click();
  const refused = page.getByRole('button', { name: 'Remove image 2' });
  await expect(refused).toHaveAccessibleDescription(/This file is not an image Hearth accepts/);
  await expect(composer(page)).toHaveValue(text);

  const posts = await page.request.get(`/api/users/${user.uid}/posts`);
  expect(((await posts.json()) as { items: unknown[] }).items).toEqual([]);

  // Without the refused file, the same post goes through.
  await refused.click();
  await postButton(page).click();
  await expect(postCard(page, text)).toBeVisible();
  // Posted without a description, the image says so to screen readers.
  await expect(
    postCard(page, text).getByRole('button', {
      name: 'An image without a description, view full size',
    }),
  ).toHaveCount(1);
});

test('editing a post shows "edited" and its earlier version can be viewed', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const author = await createUser();
  const first = uniquePostText('First draft');
  const post = await createPost(author, { body: first });
  await login(page, author);
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, first);
  await expect(card).toBeVisible();
  await expect(card.getByText(/edited/i)).toHaveCount(0);

  await choosePostAction(page, card, 'Edit');
  const editor = page.getByRole('textbox', { name: 'Edit post' });
  await expect(editor).toHaveValue(first);
  const second = uniquePostText('Second draft');
  await editor.fill(second);
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  const edited = postCard(page, second);
  await expect(edited).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);
  const mark = edited.getByRole('button', { name: /edited/i });
  await expect(mark).toBeVisible();
  await mark.click();
  const history = page.getByRole('dialog', { name: 'Edit history' });
  await expect(history).toContainText(second);
  await expect(history).toContainText(first);
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();
  await expect(mark).toBeFocused();

  // The feed shows the edit too.
  await page.goto('/feed');
  await expect(postCard(page, second)).toBeVisible();
  await expect(
    postCard(page, second)
      .getByText(/edited/i)
      .first(),
  ).toBeVisible();
});

test('deleting asks first; cancelling keeps the post, confirming removes it from the feed and its page', async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const author = await createUser();
  const text = uniquePostText('Short-lived');
  const post = await createPost(author, { body: text });
  await login(page, author);
  await page.goto('/feed');
  const card = postCard(page, text);
  await expect(card).toBeVisible();

  await choosePostAction(page, card, 'Delete');
  const confirm = deleteDialog(page);
  await expect(confirm).toBeVisible();
  // Cancel has the focus, so Enter never deletes by accident.
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(card).toBeVisible();

  await choosePostAction(page, card, 'Delete');
  await confirmDelete(page);
  await expect(postCard(page, text)).toHaveCount(0);
  await feedTab(page, 'Everyone').click();
  await expect(postCard(page, text)).toHaveCount(0);

  const response = await page.goto(`/post/${post.id}`);
  expect(response?.status()).toBe(404);
  await expect(notFoundHeading(page)).toBeVisible();
  await page.goto(`/${author.username}`);
  await expect(profileCount(page, 0, 'post')).toBeVisible();
});

test("an administrator can delete someone else's post but not edit it", async ({
  page,
  createUser,
  login,
  createPost,
  cliOk,
}) => {
  const author = await createUser();
  const admin = await createUser();
  await cliOk('users', 'set-role', admin.username, 'admin');
  const text = uniquePostText('Moderated');
  const post = await createPost(author, { body: text });
  await login(page, admin);
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, text);
  await card.getByRole('button', { name: 'More', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit', exact: true })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await expect(deleteDialog(page)).toContainText(/Its author will not be able to get it back/);
  await confirmDelete(page);
  // Deleted from its own page: back to the feed, which says so.
  await expect(page).toHaveURL(pathIs('/feed'));
  await expect(page.getByText('The post was deleted.')).toBeVisible();
  const gone = await page.request.get(`/api/posts/${post.id}`);
  expect(gone.status()).toBe(404);
});

test("someone else's post has no Edit or Delete for a regular user", async ({
  page,
  createUser,
  login,
  createPost,
}) => {
  const author = await createUser();
  const reader = await createUser();
  const text = uniquePostText('Not yours');
  const post = await createPost(author, { body: text });
  await login(page, reader);
  await page.goto(`/post/${post.id}`);
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'More', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy link' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete', exact: true })).toHaveCount(0);
});

test('an inactive user can read posts but is told why they cannot post, like or comment', async ({
  page,
  createUser,
  login,
  createPost,
  cliOk,
}) => {
  const author = await createUser();
  const text = uniquePostText('Readable');
  const post = await createPost(author, { body: text });
  const user = await createUser();
  await cliOk('users', 'set-active', user.username, 'false');
  await login(page, user);

  await page.goto('/feed');
  await expect(inactiveNotice(page)).toBeVisible();
  const main = page.getByRole('main');
  // No composer, and the feed says why in its place.
  await feedTab(page, 'Everyone').click();
  await findInFeed(page, text);
  await expect(composer(page)).toHaveCount(0);
  await expect(
    main.getByText(/awaiting activation.*can.t write, like, comment or follow/),
  ).toBeVisible();

  await page.goto(`/post/${post.id}`);
  const card = postCard(page, text);
  await expect(card).toBeVisible();
  const like = likeButton(card);
  await expect(like).toHaveAttribute('aria-disabled', 'true');
  // aria-disabled keeps it focusable; pressing it explains instead of liking.
  await like.focus();
  await page.keyboard.press('Enter');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toHaveAccessibleDescription(/awaiting activation, so you can.t like posts/);
  await expect(commentBox(page)).toHaveCount(0);
  await expect(main.getByText(/awaiting activation.*can.t comment/)).toBeVisible();
  const stored = await page.request.get(`/api/posts/${post.id}`);
  expect(((await stored.json()) as { likeCount: number }).likeCount).toBe(0);

  // Activated again, the same page offers the comment box without a reload.
  await cliOk('users', 'set-active', user.username, 'true');
  await expect(commentBox(page)).toBeVisible();
});

for (const id of ['999999999999', 'not-a-number']) {
  test(`/post/${id} answers 404 on a direct load and shows the not-found page`, async ({
    page,
  }) => {
    const response = await page.goto(`/post/${id}`);
    expect(response?.status()).toBe(404);
    await expect(notFoundHeading(page)).toBeVisible();
    await expect(page).toHaveURL(pathIs(`/post/${id}`));
  });
}
