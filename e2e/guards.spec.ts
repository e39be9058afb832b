import type { Page } from '@playwright/test';
import { expect, sessionOf, test, type TestUser } from './fixtures.js';
import { expectSignedOutNav, inactiveNotice, pathIs } from './support/ui.js';

// spec §2 guards, for each user state of spec §4: signed out, signed in inactive, signed in active.

const signedOutOnly = ['/login', '/signin', '/register', '/signup'] as const;
const activeOnlySignOut = ['/logout', '/signout'] as const;

test.describe('signed out', () => {
  for (const path of signedOutOnly) {
    test(`${path} is open`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(pathIs(path));
      await expect(
        page.getByRole('heading', { name: /sign in|create your account/i }),
      ).toBeVisible();
    });
  }

  for (const path of activeOnlySignOut) {
    test(`${path} redirects to /feed`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(pathIs('/feed'));
      await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
    });
  }

  test('/{username}/edit-profile sends the visitor to /', async ({ page, createUser }) => {
    const owner = await createUser();
    await page.goto(`/${owner.username}/edit-profile`);
    await expect(page).toHaveURL(pathIs('/'));
    await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
  });
});

/** A signed-in user whose account an operator has deactivated. */
async function signedInInactive(
  page: Page,
  createUser: () => Promise<TestUser>,
  login: (page: Page, user: TestUser) => Promise<void>,
  cliOk: (...args: string[]) => Promise<unknown>,
): Promise<TestUser> {
  const user = await createUser();
  await cliOk('users', 'set-active', user.username, 'false');
  await login(page, user);
  const session = await sessionOf(page.context());
  expect(session?.uid).toBe(user.uid);
  expect(session?.active).toBe(false);
  return user;
}

test.describe('signed in, inactive', () => {
  for (const path of signedOutOnly) {
    test(`${path} redirects to /{username}`, async ({ page, createUser, login, cliOk }) => {
      const user = await signedInInactive(page, createUser, login, cliOk);
      await page.goto(path);
      await expect(page).toHaveURL(pathIs(`/${user.username}`));
      await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    });
  }

  for (const path of activeOnlySignOut) {
    test(`${path} redirects to /feed and keeps the session`, async ({
      page,
      createUser,
      login,
      cliOk,
    }) => {
      const user = await signedInInactive(page, createUser, login, cliOk);
      await page.goto(path);
      await expect(page).toHaveURL(pathIs('/feed'));
      await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
      // Not a sign-out: the page is only for active users (spec §4).
      expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
    });
  }

  test('/{own username}/edit-profile sends the user to /', async ({
    page,
    createUser,
    login,
    cliOk,
  }) => {
    const user = await signedInInactive(page, createUser, login, cliOk);
    await page.goto(`/${user.username}/edit-profile`);
    await expect(page).toHaveURL(pathIs('/'));
    await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
  });

  test('sees the notice that the account awaits activation', async ({
    page,
    createUser,
    login,
    cliOk,
  }) => {
    await signedInInactive(page, createUser, login, cliOk);
    await page.goto('/feed');
    await expect(inactiveNotice(page)).toBeVisible();
  });
});

test.describe('signed in, active', () => {
  for (const path of signedOutOnly) {
    test(`${path} redirects to /{username}`, async ({ page, createUser, login }) => {
      const user = await createUser();
      await login(page, user);
      await page.goto(path);
      await expect(page).toHaveURL(pathIs(`/${user.username}`));
      await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    });
  }

  for (const path of activeOnlySignOut) {
    test(`${path} signs out and lands on /feed`, async ({ page, createUser, login }) => {
      const user = await createUser();
      await login(page, user);
      await page.goto(path);
      await expect(page).toHaveURL(pathIs('/feed'));
      await expectSignedOutNav(page);
      expect(await sessionOf(page.context())).toBeNull();
    });
  }

  test('/{own username}/edit-profile is open', async ({ page, createUser, login }) => {
    const user = await createUser();
    await login(page, user);
    await page.goto(`/${user.username}/edit-profile`);
    await expect(page).toHaveURL(pathIs(`/${user.username}/edit-profile`));
    await expect(page.getByRole('heading', { name: /edit (your )?profile/i })).toBeVisible();
  });

  test("another user's /{username}/edit-profile sends the user to /", async ({
    page,
    createUser,
    login,
  }) => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    await login(page, user);
    await page.goto(`/${other.username}/edit-profile`);
    await expect(page).toHaveURL(pathIs('/'));
    await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
    // Still signed in as themselves.
    expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
  });

  test("someone else's profile offers no edit link", async ({ page, createUser, login }) => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    await login(page, user);
    await page.goto(`/${other.username}`);
    await expect(page.getByRole('heading', { name: other.displayName })).toBeVisible();
    // No edit link is offered on someone else's profile.
    await expect(page.getByRole('main').getByRole('link', { name: /edit profile/i })).toHaveCount(
      0,
    );
  });

  test('does not see the inactive notice', async ({ page, createUser, login }) => {
    const user = await createUser();
    await login(page, user);
    await page.goto(`/${user.username}`);
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    await expect(inactiveNotice(page)).toBeHidden();
  });
});
