import type { Locator, Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test, uniquePostText } from './fixtures.js';
import { commentBox, composer, findInFeed, postButton, postCard } from './support/posts.js';
import { pathIs } from './support/ui.js';

/** The page's own globals, as these tests reach them (the e2e code is typed without the DOM library). */
interface PageGlobals {
  localStorage: {
    getItem: (key: string) => string | null;
    length: number;
    key: (index: number) => string | null;
  };
  history: { pushState: (state: null, unused: string, url: string) => void };
  dispatchEvent: (event: object) => boolean;
  PopStateEvent: new (type: string) => object;
}

/** The draft entries on the device, with their stored text. */
function storedDrafts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { localStorage } = globalThis as unknown as PageGlobals;
    const drafts: string[] = [];
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (key?.startsWith('hearth:draft:')) drafts.push(localStorage.getItem(key) ?? '');
    }
    return drafts;
  });
}

// Composer everywhere (issue: notifications, search and the everyday things §4): @-mention typeahead,
// Ctrl/⌘+Enter, grapheme counting, drafts on the device and the leave-page prompt.

/** A reload of a page with unsaved text meets the browser's beforeunload prompt: go ahead. */
function acceptLeavePrompts(page: Page): void {
  page.on('dialog', (dialog) => {
    void dialog.accept();
  });
}

/** The draft is written once typing pauses (half a second): wait for it to be on the device. */
async function waitForDraft(page: Page, text: string): Promise<void> {
  await expect
    .poll(async () => (await storedDrafts(page)).some((draft) => draft.includes(text)))
    .toBe(true);
}

/** Moves through the open list with ArrowDown until the option for `username` is the active one. */
async function activateOption(field: Locator, list: Locator, username: string): Promise<void> {
  const option = list.getByRole('option').filter({ hasText: `@${username}` });
  await expect(option).toBeVisible();
  const id = await option.getAttribute('id');
  for (let step = 0; step < 20; step += 1) {
    if ((await field.getAttribute('aria-activedescendant')) === id) break;
    await field.press('ArrowDown');
  }
  await expect(field).toHaveAttribute('aria-activedescendant', id ?? '');
  await expect(option).toHaveAttribute('aria-selected', 'true');
}

test('@ and the start of a name offers people; the keyboard picks one and Ctrl+Enter posts', async ({
  page,
  createUser,
  login,
}) => {
  const friend = await createUser();
  const author = await createUser();
  await login(page, author);
  await page.goto('/feed');

  const field = composer(page);
  const text = uniquePostText('Say hi to');
  await field.click();
  await field.pressSequentially(`${text} @${friend.username.slice(0, -2)}`);
  await expect(field).toHaveAttribute('aria-autocomplete', 'list');
  const list = page.getByRole('listbox', { name: 'People to mention' });
  await expect(list).toBeVisible();
  await expect(field).toHaveAttribute('aria-controls', (await list.getAttribute('id')) ?? '');
  await activateOption(field, list, friend.username);
  await expect(list.getByRole('option', { selected: true })).toContainText(friend.displayName);
  await expectNoA11yViolations(page, 'composer with the mention list open');

  await field.press('Enter');
  await expect(list).toBeHidden();
  await expect(field).toHaveValue(`${text} @${friend.username} `);
  await expect(field).toBeFocused();

  await field.pressSequentially('how are you?');
  await field.press('Control+Enter');
  const card = await findInFeed(page, text);
  await expect(card.getByRole('link', { name: `@${friend.username}` })).toHaveAttribute(
    'href',
    `/${friend.username}`,
  );
  await expect(field).toHaveValue('');
});

test('Escape closes the list and Enter is a new line again; No one found is said', async ({
  page,
  createUser,
  login,
}) => {
  const author = await createUser();
  await login(page, author);
  await page.goto('/feed');
  const field = composer(page);
  await field.click();
  await field.pressSequentially('@zq_nobody_has_this');
  await expect(page.getByText('No one found', { exact: true })).toBeVisible();
  await field.press('Escape');
  await expect(page.getByText('No one found', { exact: true })).toBeHidden();
  await field.press('Enter');
  await expect(field).toHaveValue('@zq_nobody_has_this\n');
});

test('the counter counts what a person sees: a family emoji is one character', async ({
  page,
  createUser,
  login,
}) => {
  const author = await createUser();
  await login(page, author);
  await page.goto('/feed');
  await composer(page).fill('👩‍👩‍👧‍👦');
  await expect(page.getByText('1 / 5000', { exact: true })).toBeVisible();
  await composer(page).fill('🇫🇷 e\u0301');
  await expect(page.getByText('3 / 5000', { exact: true })).toBeVisible();
});

test('an unsent post survives a reload, is offered back, and can be discarded', async ({
  page,
  createUser,
  login,
}) => {
  acceptLeavePrompts(page);
  const author = await createUser();
  await login(page, author);
  await page.goto('/feed');
  const text = uniquePostText('Half-written');
  await composer(page).fill(text);
  await waitForDraft(page, text);

  await page.reload();
  await expect(composer(page)).toHaveValue(text);
  const note = page.getByRole('status').filter({ hasText: 'Draft restored' });
  await expect(note).toBeVisible();
  await expectNoA11yViolations(page, 'feed with a restored draft');

  await note.getByRole('button', { name: 'Discard draft' }).click();
  await expect(composer(page)).toHaveValue('');
  await expect(composer(page)).toBeFocused();
  await page.reload();
  await expect(composer(page)).toHaveValue('');
  await expect(page.getByText('Draft restored')).toHaveCount(0);
});

test('a posted draft is gone, and another account on the device never sees a draft', async ({
  page,
  createUser,
  login,
}) => {
  acceptLeavePrompts(page);
  const author = await createUser();
  const other = await createUser();
  await login(page, author);
  await page.goto('/feed');
  const kept = uniquePostText('Private draft');
  await composer(page).fill(kept);
  await waitForDraft(page, kept);

  // Signing out takes the account's drafts with it.
  await page.goto('/signout');
  await expect.poll(() => storedDrafts(page)).toEqual([]);
  await login(page, other);
  await page.goto('/feed');
  await expect(composer(page)).toHaveValue('');

  const sent = uniquePostText('Sent right away');
  await composer(page).fill(sent);
  await postButton(page).click();
  await expect(postCard(page, sent)).toBeVisible();
  await page.reload();
  await expect(composer(page)).toHaveValue('');
});

test('an unsent comment and an unsent reply survive a reload', async ({
  page,
  createUser,
  login,
  createPost,
  createComment,
}) => {
  acceptLeavePrompts(page);
  const author = await createUser();
  const reader = await createUser();
  const post = await createPost(author, { body: uniquePostText('Comment later') });
  const parentText = uniquePostText('Parent');
  await createComment(author, post.id, parentText);
  await login(page, reader);
  await page.goto(`/post/${post.id}`);

  const comment = uniquePostText('A comment in progress');
  await commentBox(page).fill(comment);
  const thread = page.getByRole('listitem').filter({ hasText: parentText }).first();
  await thread.getByRole('button', { name: 'Reply', exact: true }).click();
  const replyBox = page.getByRole('textbox', { name: 'Write a reply' });
  const reply = uniquePostText('A reply in progress');
  await replyBox.fill(`${await replyBox.inputValue()}${reply}`);
  await waitForDraft(page, comment);
  await waitForDraft(page, reply);

  await page.reload();
  await expect(commentBox(page)).toHaveValue(comment);
  await expect(page.getByRole('textbox', { name: 'Write a reply' })).toHaveValue(
    new RegExp(`${reply}$`),
  );
  await expect(page.getByText('Draft restored').first()).toBeVisible();
  await expectNoA11yViolations(page, 'post page with restored drafts');

  // Sent, the comment's draft is gone.
  await commentBox(page).press('Control+Enter');
  await expect(page.getByText('Comment posted.')).toBeVisible();
  await page.reload();
  await expect(commentBox(page)).toHaveValue('');
});

test('leaving a page with unsent text asks first; Cancel stays, Leave goes', async ({
  page,
  createUser,
  login,
}) => {
  acceptLeavePrompts(page);
  const author = await createUser();
  await login(page, author);
  await page.goto('/feed');
  const text = uniquePostText('Do not lose me');
  await composer(page).fill(text);

  // The logo, home: another address than /feed, reached inside the app.
  const homeLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link').first();
  await homeLink.click();
  const dialog = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your draft is saved on this device.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoA11yViolations(page, 'leave prompt');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(pathIs('/feed'));
  await expect(composer(page)).toHaveValue(text);

  await homeLink.click();
  await dialog.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(pathIs('/'));
  // Home is the feed too: the text is still there, and kept on the device.
  await expect(composer(page)).toHaveValue(text);
  await waitForDraft(page, text);
});

test('/@username/followers and /following land on the lists at the profile address', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await page.goto(`/@${user.username.toUpperCase()}/followers`);
  await expect(page).toHaveURL(pathIs(`/${user.username}/followers`));
  await expect(page.getByRole('heading', { level: 1, name: 'Followers' })).toBeVisible();

  // Inside the app too, where no request reaches the server.
  await page.evaluate((path) => {
    const window = globalThis as unknown as PageGlobals;
    window.history.pushState(null, '', path);
    window.dispatchEvent(new window.PopStateEvent('popstate'));
  }, `/@${user.username}/following`);
  await expect(page).toHaveURL(pathIs(`/${user.username}/following`));
  await expect(page.getByRole('heading', { level: 1, name: 'Following' })).toBeVisible();
});
