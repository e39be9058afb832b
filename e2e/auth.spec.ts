import type { Page } from '@playwright/test';
import { expect, newUserInput, sessionOf, test, type NewUser } from './fixtures.js';
import { displayNameOf } from '../src/shared/display-name.js';
import { rateLimits } from '../src/shared/limits.js';
import {
  expectSignedOutNav,
  inactiveNotice,
  pathIs,
  userMenu,
  userMenuButton,
} from './support/ui.js';

async function fillSignUp(page: Page, input: NewUser): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(input.email);
  await page.getByLabel('Username', { exact: true }).fill(input.username);
  await page.getByLabel('Password', { exact: true }).fill(input.password);
  await page.getByLabel('First name', { exact: true }).fill(input.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(input.lastName);
}

async function fillSignIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel('Email or username', { exact: true }).fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.describe('sign-up', () => {
  test('creates the account, signs in and lands on /{username}', async ({ page }) => {
    const input = newUserInput();
    const displayName = displayNameOf(input);
    await page.goto('/register');
    await fillSignUp(page, input);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(pathIs(`/${input.username}`));
    await expect(page.getByRole('heading', { name: displayName })).toBeVisible();
    await expect(userMenuButton(page, displayName)).toBeVisible();
    const session = await sessionOf(page.context());
    expect(session?.username).toBe(input.username);
    expect(session?.email).toBe(input.email);
    expect(session?.active).toBe(true);
  });

  const fieldErrors: {
    name: string;
    field: 'Email' | 'Username' | 'Password';
    input: (taken: NewUser) => Partial<NewUser>;
    message: RegExp;
  }[] = [
    {
      name: 'a username that is taken',
      field: 'Username',
      input: (taken) => ({ username: taken.username }),
      message: /taken|already|in use|not available/i,
    },
    {
      name: 'an email that is taken',
      field: 'Email',
      input: (taken) => ({ email: taken.email }),
      message: /taken|already|in use|registered/i,
    },
    {
      name: 'a reserved username',
      field: 'Username',
      input: () => ({ username: 'admin' }),
      message: /reserved/i,
    },
    {
      name: 'a username with characters outside [a-z0-9_]',
      field: 'Username',
      input: () => ({ username: 'no spaces!' }),
      message: /letters, digits and underscores/i,
    },
    {
      name: 'a too-short password',
      field: 'Password',
      input: () => ({ password: 'Ab1!x' }),
      message: /at least 8/i,
    },
    {
      name: 'a common password',
      field: 'Password',
      input: () => ({ password: 'password123' }),
      message: /common|guess|easy|weak/i,
    },
    {
      name: 'an invalid email',
      field: 'Email',
      input: () => ({ email: 'not-an-email' }),
      message: /valid email/i,
    },
  ];

  for (const { name, field, input, message } of fieldErrors) {
    test(`shows an inline error on ${field} for ${name}`, async ({ page, createUser }) => {
      const taken = await createUser();
      const attempt = newUserInput(input(taken));
      await page.goto('/register');
      await fillSignUp(page, attempt);
      await page.getByRole('button', { name: 'Create account' }).click();
      const control = page.getByLabel(field, { exact: true });
      // Inline: the message is tied to its field, so a screen reader announces it there.
      await expect(control).toHaveAttribute('aria-invalid', 'true');
      await expect(control).toHaveAccessibleDescription(message);
      await expect(page).toHaveURL(pathIs('/register'));
      expect(await sessionOf(page.context())).toBeNull();
    });
  }

  test('requires every field', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    for (const label of ['Email', 'Username', 'Password', 'First name', 'Last name']) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    }
    await expect(page).toHaveURL(pathIs('/signup'));
  });
});

test.describe('sign-in', () => {
  for (const identifier of ['email', 'username'] as const) {
    test(`by ${identifier} lands on /{username}`, async ({ page, createUser }) => {
      const user = await createUser();
      await page.goto('/login');
      await fillSignIn(page, user[identifier], user.password);
      await expect(page).toHaveURL(pathIs(`/${user.username}`));
      await expect(userMenuButton(page, user.displayName)).toBeVisible();
      expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
    });
  }

  test('by username ignores case', async ({ page, createUser }) => {
    const user = await createUser();
    await page.goto('/signin');
    await fillSignIn(page, user.username.toUpperCase(), user.password);
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
  });

  test('with a wrong password shows an error and stays signed out', async ({
    page,
    createUser,
  }) => {
    const user = await createUser();
    await page.goto('/login');
    await fillSignIn(page, user.username, `${user.password}-wrong`);
    await expect(page.getByRole('alert').filter({ hasText: /./ })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: /./ })).toContainText(
      /incorrect|invalid|wrong|match/i,
    );
    await expect(page).toHaveURL(pathIs('/login'));
    expect(await sessionOf(page.context())).toBeNull();
  });

  test('with an unknown account shows the same error', async ({ page }) => {
    await page.goto('/login');
    await fillSignIn(page, `nobody_${Date.now().toString(36)}`, 'Some-long-password-1');
    await expect(page.getByRole('alert').filter({ hasText: /./ })).toContainText(
      /incorrect|invalid|wrong|match/i,
    );
    await expect(page).toHaveURL(pathIs('/login'));
  });

  test('an inactive account can sign in and sees the activation notice', async ({
    page,
    createUser,
    cliOk,
  }) => {
    const user = await createUser();
    await cliOk('users', 'set-active', user.username, 'false');
    await page.goto('/login');
    await fillSignIn(page, user.username, user.password);
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
    await expect(inactiveNotice(page)).toBeVisible();
  });

  test('too many attempts from one IP show a rate-limit message', async ({
    page,
    createUser,
    appURL,
  }) => {
    const user = await createUser();
    // Spend the window's allowance (DESIGN.md: sign-in 10 tries / 5 min per IP) from this test's own IP.
    for (let attempt = 0; attempt < rateLimits.signIn.max; attempt += 1) {
      const response = await page.context().request.post('/api/auth/sign-in', {
        data: {
          identifier: `nobody_${String(attempt)}_${user.username}`,
          password: 'Wrong-password-1',
        },
        headers: { Origin: appURL },
      });
      expect(response.status()).toBe(401);
    }
    await page.goto('/login');
    // Even the right password is refused now, with a message that says why.
    await fillSignIn(page, user.username, user.password);
    const alert = page.getByRole('alert').filter({ hasText: /./ });
    await expect(alert).toContainText(/too many|try again/i);
    await expect(page).toHaveURL(pathIs('/login'));
    expect(await sessionOf(page.context())).toBeNull();
  });
});

test.describe('a signed-in page load', () => {
  test('shows the account from the session, without waiting for the socket or reading the user again', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser();
    await login(page, user);
    // No socket, and no read of the user document over HTTP: the session's answer carries it (ADR 0035).
    await page.routeWebSocket(/\/api\/realtime$/, () => undefined);
    const userReads: string[] = [];
    await page.route(`**/api/users/${user.uid}`, async (route) => {
      userReads.push(route.request().url());
      await route.abort();
    });
    await page.goto(`/${user.username}`);
    await expect(userMenuButton(page, user.displayName)).toBeVisible();
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    expect(userReads).toEqual([]);
  });
});

test.describe('sign-out', () => {
  test('from the menu signs out, lands on /feed and stays signed out after a reload', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser();
    await login(page, user);
    await page.goto(`/${user.username}`);
    await userMenuButton(page, user.displayName).click();
    await userMenu(page).getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(pathIs('/feed'));
    await expectSignedOutNav(page);
    await page.reload();
    await expectSignedOutNav(page);
    expect(await sessionOf(page.context())).toBeNull();
  });

  test('signing in again after signing out works', async ({ page, createUser }) => {
    const user = await createUser();
    await page.goto('/login');
    await fillSignIn(page, user.email, user.password);
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
    await page.goto('/logout');
    await expect(page).toHaveURL(pathIs('/feed'));
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await fillSignIn(page, user.username, user.password);
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
  });
});

test.describe('origin check', () => {
  test('a sign-out posted from another origin is refused and the session stays', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser();
    await login(page, user);
    const response = await page.context().request.post('/api/auth/sign-out', {
      headers: { Origin: 'http://attacker.example' },
    });
    expect(response.status()).toBe(403);
    expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
  });

  test('a sign-in posted from another origin is refused', async ({ page, createUser }) => {
    const user = await createUser();
    const response = await page.context().request.post('/api/auth/sign-in', {
      data: { identifier: user.username, password: user.password },
      headers: { Origin: 'http://attacker.example' },
    });
    expect(response.status()).toBe(403);
    expect(await sessionOf(page.context())).toBeNull();
  });
});
