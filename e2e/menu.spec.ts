import type { Page } from '@playwright/test';
import { expect, sessionOf, test, type TestUser } from './fixtures.js';
import type { PageImage } from './support/page-globals.js';
import { expectSignedOutNav, navBar, pathIs, userMenu, userMenuButton } from './support/ui.js';

// spec §2: navigation bar and user menu.

// spec §2's three items, with Account settings (issue: profiles) before Sign Out.
const items = ['View Profile', 'Edit Profile', 'Account settings', 'Sign Out'] as const;

function item(page: Page, name: (typeof items)[number]) {
  return userMenu(page).getByRole('menuitem', { name, exact: true });
}

test.describe('navigation bar', () => {
  test('signed out: a logo link to /, and Login and Sign Up links', async ({ page }) => {
    await page.goto('/tos');
    const nav = navBar(page);
    const logo = nav.getByRole('link').first();
    await expect(logo).toHaveAttribute('href', '/');
    await expect(logo.getByRole('img')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(nav.getByRole('link', { name: 'Sign Up', exact: true })).toHaveAttribute(
      'href',
      '/register',
    );
    await expect(nav.locator('[aria-haspopup="menu"]')).toHaveCount(0);
    await logo.click();
    await expect(page).toHaveURL(pathIs('/'));
  });

  test('signed in: a menu button with avatar and display name, no Login or Sign Up', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser();
    await login(page, user);
    await page.goto('/feed');
    const button = userMenuButton(page, user.displayName);
    await expect(button).toBeVisible();
    await expect(button).toContainText(user.displayName);
    // The avatar sits beside the printed name, so it is decorative (alt="") but must be there and load.
    const avatar = button.locator('img').first();
    await expect(avatar).toBeVisible();
    await expect
      .poll(() => avatar.evaluate((image: unknown) => (image as PageImage).naturalWidth))
      .toBeGreaterThan(0);
    await expect(button).toHaveAttribute('aria-haspopup', 'menu');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toHaveCount(0);
  });
});

async function signedInAt(
  page: Page,
  createUser: () => Promise<TestUser>,
  login: (page: Page, user: TestUser) => Promise<void>,
  path = '/feed',
): Promise<TestUser> {
  const user = await createUser();
  await login(page, user);
  await page.goto(path);
  await expect(userMenuButton(page, user.displayName)).toBeVisible();
  return user;
}

test.describe('by mouse', () => {
  test('opens with its items in order', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    const button = userMenuButton(page, user.displayName);
    await button.click();
    await expect(userMenu(page)).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(userMenu(page).getByRole('menuitem')).toHaveText([...items]);
  });

  test('View Profile goes to /{username} and closes the menu', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).click();
    await item(page, 'View Profile').click();
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    await expect(userMenu(page)).toBeHidden();
  });

  test('Edit Profile goes to /{username}/edit-profile and closes the menu', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).click();
    await item(page, 'Edit Profile').click();
    await expect(page).toHaveURL(pathIs(`/${user.username}/edit-profile`));
    await expect(userMenu(page)).toBeHidden();
  });

  test('Account settings goes to /settings/account and closes the menu', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).click();
    await item(page, 'Account settings').click();
    await expect(page).toHaveURL(pathIs('/settings/account'));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(userMenu(page)).toBeHidden();
  });

  test('Sign Out goes to /signout, signs out and lands on /feed', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login, `/tos`);
    await userMenuButton(page, user.displayName).click();
    await item(page, 'Sign Out').click();
    await expect(page).toHaveURL(pathIs('/feed'));
    await expectSignedOutNav(page);
    expect(await sessionOf(page.context())).toBeNull();
  });

  test('closes on a click outside it, staying on the page', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).click();
    await expect(userMenu(page)).toBeVisible();
    // A plain, non-interactive spot of the page: the Feed heading.
    await page.getByRole('heading', { name: 'Feed', exact: true }).click();
    await expect(userMenu(page)).toBeHidden();
    await expect(page).toHaveURL(pathIs('/feed'));
    await expect(userMenuButton(page, user.displayName)).toHaveAttribute('aria-expanded', 'false');
  });

  test('closes on Escape and gives focus back to the button', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    const button = userMenuButton(page, user.displayName);
    await button.click();
    await expect(userMenu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(userMenu(page)).toBeHidden();
    await expect(button).toBeFocused();
  });

  test('closes on a route change', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(pathIs('/tos'));
    await userMenuButton(page, user.displayName).click();
    await expect(userMenu(page)).toBeVisible();
    // Back is a route change that does not go through the menu.
    await page.goBack();
    await expect(page).toHaveURL(pathIs('/feed'));
    await expect(userMenu(page)).toBeHidden();
  });
});

test.describe('by keyboard', () => {
  for (const key of ['Enter', 'Space', 'ArrowDown'] as const) {
    test(`${key} on the button opens the menu and focuses the first item`, async ({
      page,
      createUser,
      login,
    }) => {
      const user = await signedInAt(page, createUser, login);
      const button = userMenuButton(page, user.displayName);
      await button.focus();
      await page.keyboard.press(key);
      await expect(userMenu(page)).toBeVisible();
      await expect(item(page, 'View Profile')).toBeFocused();
    });
  }

  test('ArrowUp on the button opens the menu and focuses the last item', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).focus();
    await page.keyboard.press('ArrowUp');
    await expect(userMenu(page)).toBeVisible();
    await expect(item(page, 'Sign Out')).toBeFocused();
  });

  test('arrows move between items', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).focus();
    await page.keyboard.press('Enter');
    await expect(item(page, 'View Profile')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Edit Profile')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Account settings')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Sign Out')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(item(page, 'Account settings')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(item(page, 'Edit Profile')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(item(page, 'View Profile')).toBeFocused();
  });

  test('Enter activates the focused item', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).focus();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'View Profile')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Edit Profile')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(pathIs(`/${user.username}/edit-profile`));
    await expect(userMenu(page)).toBeHidden();
  });

  test('Enter on Sign Out signs out', async ({ page, createUser, login }) => {
    const user = await signedInAt(page, createUser, login);
    await userMenuButton(page, user.displayName).focus();
    await page.keyboard.press('ArrowUp');
    await expect(item(page, 'Sign Out')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(pathIs('/feed'));
    await expectSignedOutNav(page);
  });

  test('Escape closes the menu and returns focus to the button', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedInAt(page, createUser, login);
    const button = userMenuButton(page, user.displayName);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(item(page, 'View Profile')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await expect(userMenu(page)).toBeHidden();
    await expect(button).toBeFocused();
    await expect(page).toHaveURL(pathIs('/feed'));
  });
});
