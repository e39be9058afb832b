import { expect, sessionOf, test } from './fixtures.js';
import { expectSignedOutNav, notFoundHeading, pathIs } from './support/ui.js';
import { instance } from './support/env.js';
import type { PageImage } from './support/page-globals.js';

// spec §2: every row of the route table, each alias.

for (const path of ['/', '/feed']) {
  test(`${path} shows a visitor the Everyone feed and how to join in`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
    // Signed out, Everyone is the only tab (issue: posts §6).
    await expect(page.getByRole('tab')).toHaveCount(1);
    await expect(page.getByRole('tab', { name: 'Everyone' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Write a post' })).toHaveCount(0);
    await expect(page).toHaveURL(pathIs(path));
  });
}

for (const path of ['/login', '/signin']) {
  test(`${path} shows the sign-in form to a visitor`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email or username')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page).toHaveURL(pathIs(path));
  });
}

for (const path of ['/register', '/signup']) {
  test(`${path} shows the sign-up form to a visitor`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    for (const label of ['Email', 'Username', 'Password', 'First name', 'Last name']) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
    await expect(page).toHaveURL(pathIs(path));
  });
}

for (const path of ['/logout', '/signout']) {
  test(`${path} signs an active user out and lands on /feed`, async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser();
    await login(page, user);
    await page.goto(path);
    await expect(page).toHaveURL(pathIs('/feed'));
    await expectSignedOutNav(page);
    expect(await sessionOf(page.context())).toBeNull();
  });
}

test('/post/{postId} shows a not-found state for a post that does not exist', async ({ page }) => {
  await page.goto('/post/does-not-exist-123');
  await expect(notFoundHeading(page)).toBeVisible();
  await expect(page).toHaveURL(pathIs('/post/does-not-exist-123'));
});

for (const prefix of ['', '/ym']) {
  test(`${prefix}/{username} shows the profile`, async ({ page, createUser }) => {
    const user = await createUser();
    await page.goto(`${prefix}/${user.username}`);
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    const avatar = page
      .getByRole('main')
      .getByRole('img', { name: new RegExp(user.displayName) })
      .first();
    await expect(avatar).toBeVisible();
    // spec §3: the default avatar, and it actually loads.
    await expect
      .poll(() => avatar.evaluate((image: unknown) => (image as PageImage).naturalWidth))
      .toBeGreaterThan(0);
  });

  test(`${prefix}/{username} shows a not-found state for an unknown username`, async ({ page }) => {
    await page.goto(`${prefix}/nobody_here_${Date.now().toString(36)}`);
    await expect(notFoundHeading(page)).toBeVisible();
  });
}

for (const prefix of ['', '/ym']) {
  test(`a mixed-case ${prefix}/{username} URL lands on the lowercase one`, async ({
    page,
    createUser,
  }) => {
    const user = await createUser();
    const mixed = user.username.replace(/^e2e/, 'E2E');
    expect(mixed).not.toBe(user.username);
    await page.goto(`${prefix}/${mixed}`);
    await expect(page).toHaveURL(pathIs(`${prefix}/${user.username}`));
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
  });
}

test('/user/{uid} redirects to /{username}', async ({ page, createUser }) => {
  const user = await createUser();
  await page.goto(`/user/${user.uid}`);
  await expect(page).toHaveURL(pathIs(`/${user.username}`));
  await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
});

test('/user/{uid} shows a not-found state for an unknown uid', async ({ page }) => {
  await page.goto('/user/unknownUid123');
  await expect(notFoundHeading(page)).toBeVisible();
});

test('/{username}/edit-profile shows the owner their profile and its form', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto(`/${user.username}/edit-profile`);
  await expect(page).toHaveURL(pathIs(`/${user.username}/edit-profile`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText(user.displayName);
  await expect(main).toContainText(`@${user.username}`);
  await expect(main).toContainText(user.email);
  // The form starts from the profile as it stands.
  await expect(main.getByLabel('First name', { exact: true })).toHaveValue(user.firstName);
  await expect(main.getByLabel('Last name', { exact: true })).toHaveValue(user.lastName);
  await expect(main.getByLabel('Username', { exact: true })).toHaveValue(user.username);
});

test('/settings/profile (the Edit Profile fallback) leads a user with a username to their edit page', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/settings/profile');
  await expect(page).toHaveURL(pathIs(`/${user.username}/edit-profile`));
});

test('/settings/profile sends a visitor to /', async ({ page }) => {
  await page.goto('/settings/profile');
  await expect(page).toHaveURL(pathIs('/'));
});

test('/reset-password shows the request form', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
});

test('/reset-password?token=… shows the new-password form', async ({ page }) => {
  await page.goto('/reset-password?token=some-token');
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Confirm new password', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible();
});

for (const [path, title] of [
  ['/tos', /terms of service/i],
  ['/privacy', /privacy policy/i],
] as const) {
  test(`${path} shows the document for this instance`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(instance.name);
  });
}

test('an unknown path shows a not-found page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(notFoundHeading(page)).toBeVisible();
  // The way back is offered.
  await expect(page.getByRole('main').getByRole('link').first()).toBeVisible();
});

test('a guard shows the loading screen (logo, alt text "Loading") while the session loads', async ({
  page,
}) => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/auth/session', async (route) => {
    await gate;
    await route.continue();
  });
  // spec §2: while the auth state is loading, the guards show a loading indicator.
  await page.goto('/login', { waitUntil: 'commit' });
  const loading = page.getByRole('img', { name: 'Loading', exact: true });
  await expect(loading).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeHidden();
  release();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(loading).toBeHidden();
});
