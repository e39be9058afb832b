import { writeFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { limits } from '../src/shared/limits.js';
import { defaultImages } from '../src/shared/paths.js';
import { charCount } from '../src/shared/text.js';
import {
  expect,
  expectNoA11yViolations,
  isolatedRequest,
  newUserInput,
  test,
  type TestUser,
} from './fixtures.js';
import { fakePngFile, jpegFile, pngFile } from './support/images.js';
import {
  collectPageProblems,
  expectSameDocument,
  markDocument,
  pathIs,
  userMenuButton,
} from './support/ui.js';

// Profile editing at /{username}/edit-profile (spec §2 route and guard; issue: profiles).

function editPath(user: { username: string }): string {
  return `/${user.username}/edit-profile`;
}

/** Signs the user in and opens their edit page, ready to type. */
async function openEditor(
  page: Page,
  user: TestUser,
  login: (page: Page, user: TestUser) => Promise<void>,
): Promise<void> {
  await login(page, user);
  await page.goto(editPath(user));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue(user.firstName);
}

function saveButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Save', exact: true });
}

async function save(page: Page): Promise<void> {
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible();
}

/** The error paragraph a field points at with aria-describedby. */
async function expectFieldError(field: Locator, message: string | RegExp): Promise<void> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
}

/** The profile's cover image (decorative unless described, so found by place, not by name). */
function coverImage(page: Page): Locator {
  return page.locator('.profile__cover img');
}

test('each text field saves, and a visitor sees it live without reloading', async ({
  page,
  createUser,
  login,
  newPage,
}) => {
  const user = await createUser();
  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  await expect(visitor.getByRole('heading', { level: 1, name: user.displayName })).toBeVisible();
  await markDocument(visitor);

  await openEditor(page, user, login);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Display name').fill('Amazing Grace');
  const bioText = 'Rear admiral.\nNotes at https://example.org/cobol and more.';
  await page.getByLabel('Bio').fill(bioText);
  await page.getByLabel('Website').fill('https://grace.example/about');
  await expect(
    page.getByText(`${String(charCount(bioText))} / ${String(limits.bio.max)}`),
  ).toBeVisible();
  await save(page);
  await expect(
    page.getByRole('status').getByRole('link', { name: 'View your profile' }),
  ).toHaveAttribute('href', `/${user.username}`);

  // The visitor's open page follows users/{uid} (spec §7).
  await expect(visitor.getByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeVisible();
  const bio = visitor.locator('.profile__bio');
  await expect(bio).toHaveText(bioText);
  const bioLink = bio.getByRole('link', { name: 'https://example.org/cobol' });
  await expect(bioLink).toHaveAttribute('href', 'https://example.org/cobol');
  await expect(bioLink).toHaveAttribute('rel', 'nofollow noopener noreferrer ugc');
  const website = visitor.getByRole('link', { name: /grace\.example/ });
  await expect(website).toHaveAttribute('href', 'https://grace.example/about');
  await expect(website).toHaveAttribute('rel', 'me nofollow noopener');
  await expect(website).toContainText('grace.example');
  // The owner's own navigation bar follows too.
  await expect(userMenuButton(page, 'Grace Hopper')).toBeVisible();

  // spec §3: without first and last name, the display name is shown.
  await page.getByLabel('First name').fill('');
  await page.getByLabel('Last name').fill('');
  await save(page);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Amazing Grace' })).toBeVisible();

  // Empty clears: the bio and website go away.
  await page.getByLabel('Bio').fill('');
  await page.getByLabel('Website').fill('');
  await save(page);
  await expect(visitor.locator('.profile__bio')).toHaveCount(0);
  await expect(visitor.getByRole('link', { name: /grace\.example/ })).toHaveCount(0);
  await expectSameDocument(visitor);
});

test('only the changed fields are sent', async ({ page, createUser, login }) => {
  const user = await createUser();
  await openEditor(page, user, login);
  const sent = page.waitForRequest(
    (request) => request.method() === 'PATCH' && request.url().endsWith('/profile'),
  );
  await page.getByLabel('Last name').fill('Byron');
  await saveButton(page).click();
  // Text alone goes as JSON (the contract's form endpoints take multipart only when files come along).
  const body: unknown = (await sent).postDataJSON();
  expect(body).toEqual({ lastName: 'Byron' });
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible();

  // Saving again with nothing changed sends nothing and says so.
  let patches = 0;
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches += 1;
  });
  await saveButton(page).click();
  await expect(page.getByRole('status')).toContainText('Nothing to save');
  expect(patches).toBe(0);
});

test('an avatar and a cover upload, show on the profile, and can be removed again', async ({
  page,
  createUser,
  login,
  newPage,
}) => {
  const user = await createUser();
  await openEditor(page, user, login);
  const avatarInput = page.getByLabel('Avatar', { exact: true });
  const coverInput = page.getByLabel('Cover image', { exact: true });

  // No description field before there is an image to describe.
  await expect(page.getByLabel('Avatar description')).toHaveCount(0);
  await avatarInput.setInputFiles(await pngFile('me.png', 320, 320));
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toBeVisible();
  await page.getByLabel('Avatar description').fill('A red square');
  await coverInput.setInputFiles(await jpegFile('hills.jpg', 1600, 600));
  await expect(page.getByRole('img', { name: 'Preview of your new cover image' })).toBeVisible();
  await page.getByLabel('Cover description').fill('Warm hills at dusk');
  await save(page);
  await expect(page.getByRole('img', { name: 'Your current avatar' })).toHaveAttribute(
    'src',
    /^\/media\//,
  );

  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  const avatar = visitor.getByRole('img', { name: 'A red square' });
  await expect(avatar).toHaveAttribute('src', /^\/media\//);
  await expect(coverImage(visitor)).toHaveAttribute('src', /^\/media\//);
  await expect(coverImage(visitor)).toHaveAttribute('alt', 'Warm hills at dusk');
  await markDocument(visitor);

  // A chosen-but-unsaved file is just dropped; a saved image is marked, with Undo.
  await avatarInput.setInputFiles(await pngFile('other.png', 200, 200));
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await expect(page.getByRole('img', { name: 'Your current avatar' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await expect(page.getByText('Your avatar will be removed when you save.')).toBeVisible();
  const undo = page.getByRole('button', { name: /^Undo/ });
  await expect(undo).toBeFocused();
  await undo.click();
  await expect(page.getByText('Your avatar will be removed when you save.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove avatar' })).toBeFocused();

  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await page.getByRole('button', { name: 'Remove cover' }).click();
  await save(page);

  // spec §3: the default images come back, live.
  await expect(visitor.locator('.profile__avatar')).toHaveAttribute('src', defaultImages.avatar);
  await expect(coverImage(visitor)).toHaveAttribute('src', defaultImages.cover);
  await expect(coverImage(visitor)).toHaveAttribute('alt', '');
  await expectSameDocument(visitor);
  await expect(page.getByRole('button', { name: 'Remove avatar' })).toHaveCount(0);
});

test('a bio over the limit and a javascript: website are refused on their fields, and nothing is saved', async ({
  page,
  createUser,
  login,
  playwright,
  appURL,
}) => {
  const user = await createUser();
  await openEditor(page, user, login);
  let patches = 0;
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches += 1;
  });

  const bio = page.getByLabel('Bio');
  await bio.fill('x'.repeat(limits.bio.max + 1));
  await expect(
    page.getByText(`${String(limits.bio.max + 1)} / ${String(limits.bio.max)}`),
  ).toBeVisible();
  const website = page.getByLabel('Website');
  await website.fill('javascript:alert(1)');
  await saveButton(page).click();
  await expectFieldError(bio, /Keep your bio to 500 characters/);
  await expect(bio).toBeFocused();
  await expectFieldError(website, /Enter a web address starting with https:\/\/ or http:\/\//);
  expect(patches).toBe(0);

  const request = await isolatedRequest(playwright.request, appURL);
  const stored = (await (await request.get(`/api/users/${user.uid}`)).json()) as {
    bio: string | null;
    website: string | null;
  };
  expect(stored).toMatchObject({ bio: null, website: null });
  await request.dispose();

  // Fixing both clears the errors and saves.
  await bio.fill('x'.repeat(limits.bio.max));
  await website.fill('https://example.org');
  await save(page);
  await expect(bio).not.toHaveAttribute('aria-invalid', 'true');
});

test('a text file named .png is refused on the Avatar field by the server', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await openEditor(page, user, login);
  const avatarInput = page.getByLabel('Avatar', { exact: true });
  await avatarInput.setInputFiles(fakePngFile());
  // The browser cannot draw it, so there is no preview; the server reads the bytes on Save.
  await expect(page.getByText('No preview for this file.')).toBeVisible();
  await saveButton(page).click();
  await expect(avatarInput).toHaveAttribute('aria-invalid', 'true');
  await expect(avatarInput).toBeFocused();
  await expect(page.locator('.image-field--round .field__error')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toHaveCount(0);

  // Removing the refused file lets the rest of the form save.
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await page.getByLabel('Display name').fill('Notes');
  await save(page);
});

test('a file of the wrong type or over 10 MB is refused before uploading', async ({
  page,
  createUser,
  login,
}, testInfo) => {
  const user = await createUser();
  await openEditor(page, user, login);
  const coverInput = page.getByLabel('Cover image', { exact: true });
  await coverInput.setInputFiles({
    name: 'drawing.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  await expectFieldError(coverInput, /Choose a JPEG, PNG, WebP, GIF or AVIF image/);
  // A path, not a buffer: ten megabytes cross the browser protocol far faster as a file.
  const huge = testInfo.outputPath('huge.png');
  await writeFile(huge, Buffer.alloc(limits.upload.maxBytes + 1));
  await coverInput.setInputFiles(huge);
  await expectFieldError(coverInput, /images can be at most 10 MB/);
  let patches = 0;
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches += 1;
  });
  await saveButton(page).click();
  await expect(coverInput).toBeFocused();
  expect(patches).toBe(0);
});

test('a new username: the new edit address, a redirect from the old name, the 30-day rule, and the old name stays reserved', async ({
  page,
  createUser,
  login,
  newPage,
}) => {
  const user = await createUser();
  const next = `${user.username}_n`;
  await openEditor(page, user, login);
  const username = page.getByLabel('Username');
  await expect(username).toHaveAccessibleDescription(
    /once every 30 days.*redirect here for 90 days/,
  );
  await username.fill(next.toUpperCase());
  await saveButton(page).click();

  await expect(page).toHaveURL(pathIs(`/${next}/edit-profile`));
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible();
  await expect(username).toHaveValue(next);
  // Me.usernameChangeAvailableAt: the field is read-only and says until when.
  await expect(username).toHaveAttribute('readonly', '');
  await expect(username).toHaveAccessibleDescription(
    /You changed your username recently\. You can change it again on /,
  );

  // The old name redirects to the new one, at both profile addresses (spec §2).
  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  await expect(visitor).toHaveURL(pathIs(`/${next}`));
  await expect(visitor.getByRole('heading', { level: 1, name: user.displayName })).toBeVisible();
  await visitor.goto(`/ym/${user.username}`);
  await expect(visitor).toHaveURL(pathIs(`/ym/${next}`));

  // Nobody else can take the old name while it redirects.
  await visitor.goto('/register');
  const other = newUserInput({ username: user.username });
  await visitor.getByLabel('Email').fill(`other_${other.email}`);
  await visitor.getByLabel('Username').fill(user.username);
  await visitor.getByLabel('Password').fill(other.password);
  await visitor.getByLabel('First name').fill(other.firstName);
  await visitor.getByLabel('Last name').fill(other.lastName);
  await visitor.getByRole('button', { name: 'Create account' }).click();
  await expect(visitor.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
  await expect(visitor).toHaveURL(pathIs('/register'));
});

test('the edit page links to account settings and to the profile', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await openEditor(page, user, login);
  await expect(page.getByRole('link', { name: 'View profile', exact: true })).toHaveAttribute(
    'href',
    `/${user.username}`,
  );
  await page.getByRole('link', { name: 'Account settings' }).click();
  await expect(page).toHaveURL(pathIs('/settings/account'));
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
});

test('the edit page loads without console errors (CSP included)', async ({
  page,
  createUser,
  login,
}) => {
  const problems = collectPageProblems(page);
  const user = await createUser();
  await openEditor(page, user, login);
  await page.getByLabel('Avatar', { exact: true }).setInputFiles(await pngFile('a.png', 64, 64));
  await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toBeVisible();
  await save(page);
  expect(problems).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the edit page, with field errors and a chosen image, has no serious axe violation', async ({
      page,
      createUser,
      login,
    }) => {
      const user = await createUser();
      await openEditor(page, user, login);
      await expectNoA11yViolations(page, `edit profile (${scheme})`);
      await page.getByLabel('Bio').fill('x'.repeat(limits.bio.max + 3));
      await page.getByLabel('Website').fill('ftp://nope');
      await page
        .getByLabel('Avatar', { exact: true })
        .setInputFiles(await pngFile('a.png', 64, 64));
      await saveButton(page).click();
      await expect(page.getByLabel('Website')).toHaveAttribute('aria-invalid', 'true');
      await expectNoA11yViolations(page, `edit profile with errors (${scheme})`);
    });
  });
}
