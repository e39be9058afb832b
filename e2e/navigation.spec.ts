import type { Locator, Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test, uniquePostText, type TestUser } from './fixtures.js';
import type { PageGlobals } from './support/page-globals.js';
import { composer, postButton, postCard } from './support/posts.js';
import { footer, navBar, pathIs, userMenuButton } from './support/ui.js';

// Issue: notifications and search §1: the main navigation (Home, Search, Notifications with the unread
// count, Profile, Write), the composer from any page, and keyboard shortcuts.

const phone = { width: 390, height: 844 };

function mainLinks(page: Page): Locator {
  return navBar(page).getByRole('list').first();
}

function navLink(page: Page, name: string | RegExp): Locator {
  return mainLinks(page).getByRole('link', { name, exact: typeof name === 'string' });
}

function writeButton(page: Page): Locator {
  return navBar(page).getByRole('button', { name: 'Write', exact: true });
}

function writeDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'New post' });
}

/** The composer in the Write dialog (a page such as /feed may show its own composer too). */
function dialogComposer(page: Page): Locator {
  return writeDialog(page).getByRole('textbox', { name: 'Write a post' });
}

function shortcutsDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Keyboard shortcuts' });
}

async function signedIn(
  page: Page,
  createUser: () => Promise<TestUser>,
  login: (page: Page, user: TestUser) => Promise<void>,
  path = '/tos',
): Promise<TestUser> {
  const user = await createUser();
  await login(page, user);
  await page.goto(path);
  await expect(userMenuButton(page, user.displayName)).toBeVisible();
  await expect(writeButton(page)).toBeVisible();
  return user;
}

/** Presses keys on the page itself, not in any field. */
async function pressOnPage(page: Page, ...keys: string[]): Promise<void> {
  await page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: { activeElement: { blur?: () => void } | null };
    };
    document.activeElement?.blur?.();
  });
  for (const key of keys) await page.keyboard.press(key);
}

test.describe('on a wide screen', () => {
  test('signed out: Home and Search beside Login and Sign Up', async ({ page }) => {
    await page.goto('/feed');
    const links = mainLinks(page).getByRole('link');
    await expect(links).toHaveText(['Home', 'Search']);
    await expect(navLink(page, 'Home')).toHaveAttribute('href', '/feed');
    await expect(navLink(page, 'Home')).toHaveAttribute('aria-current', 'page');
    await expect(navLink(page, 'Search')).toHaveAttribute('href', '/search');
    await expect(navBar(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(navBar(page).getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
    await expect(writeButton(page)).toHaveCount(0);
    await expect(navBar(page).getByRole('link', { name: /^Notifications/ })).toHaveCount(0);
  });

  test('signed in: Home, Search, Notifications, Profile and Write, the current page marked', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedIn(page, createUser, login, '/feed');
    await expect(mainLinks(page).getByRole('link')).toHaveText([
      'Home',
      'Search',
      'Notifications',
      'Profile',
    ]);
    await expect(navLink(page, 'Notifications')).toHaveAttribute('href', '/notifications');
    await expect(navLink(page, 'Profile')).toHaveAttribute('href', `/${user.username}`);
    await expect(navLink(page, 'Home')).toHaveAttribute('aria-current', 'page');
    await navLink(page, 'Profile').click();
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    await expect(navLink(page, 'Profile')).toHaveAttribute('aria-current', 'page');
    await expect(navLink(page, 'Home')).not.toHaveAttribute('aria-current', 'page');
    await navLink(page, 'Search').click();
    await expect(page).toHaveURL(pathIs('/search'));
    await expect(navLink(page, 'Search')).toHaveAttribute('aria-current', 'page');
    // The nav sits in the top bar, above the page.
    const bar = await mainLinks(page).boundingBox();
    expect(bar?.y ?? 1_000).toBeLessThan(80);
  });

  test('an inactive account has no Write, and n does nothing', async ({
    page,
    createUser,
    login,
    cliOk,
  }) => {
    const user = await createUser();
    await cliOk('users', 'set-active', user.username, 'false');
    await login(page, user);
    await page.goto('/tos');
    await expect(userMenuButton(page, user.displayName)).toBeVisible();
    await expect(navLink(page, 'Profile')).toBeVisible();
    await expect(writeButton(page)).toHaveCount(0);
    await pressOnPage(page, 'n');
    await expect(writeDialog(page)).toHaveCount(0);
  });

  test('the unread count shows live, with its accessible name', async ({
    page,
    createUser,
    login,
    follow,
  }) => {
    const user = await signedIn(page, createUser, login, '/tos');
    await expect(navLink(page, 'Notifications')).toBeVisible();
    const fan = await createUser();
    await follow(fan, user);
    const badged = navLink(page, 'Notifications, 1 unread');
    await expect(badged).toBeVisible({ timeout: 5_000 });
    await expect(badged.getByText('1', { exact: true })).toBeVisible();
    await expect(badged).toHaveAttribute('href', '/notifications');
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: phone });

  test('the main links are a bar fixed to the bottom that covers neither the page nor the footer', async ({
    page,
    createUser,
    login,
  }) => {
    await signedIn(page, createUser, login, '/tos');
    const bar = mainLinks(page);
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(phone.height);
    expect(box?.width).toBe(phone.width);
    for (const target of [
      navLink(page, 'Home'),
      navLink(page, 'Search'),
      navLink(page, 'Notifications'),
      navLink(page, 'Profile'),
      writeButton(page),
    ]) {
      await expect(target).toBeVisible();
      const size = await target.boundingBox();
      expect(size?.height ?? 0).toBeGreaterThanOrEqual(44);
      expect(size?.width ?? 0).toBeGreaterThanOrEqual(44);
    }
    // Scrolled to the very end, the footer ends above the bar.
    await page.mouse.wheel(0, 100_000);
    const copyright = footer(page).getByText(/©/);
    await expect(copyright).toBeVisible();
    await expect
      .poll(async () => {
        const text = await copyright.boundingBox();
        const nav = await bar.boundingBox();
        return (text?.y ?? 0) + (text?.height ?? 0) <= (nav?.y ?? 0);
      })
      .toBe(true);
    await expect(footer(page).getByRole('link', { name: 'Terms of Service' })).toBeInViewport();
    await footer(page).getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(pathIs('/privacy'));
  });

  test('signed out, the bar holds Home and Search, and the page has no sideways scroll', async ({
    page,
  }) => {
    await page.goto('/feed');
    await expect(mainLinks(page).getByRole('link')).toHaveText(['Home', 'Search']);
    const box = await mainLinks(page).boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(phone.height);
    await expect(navBar(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    const widths = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      return {
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      };
    });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });

  test('Write from the bar opens the composer and posts', async ({ page, createUser, login }) => {
    const user = await signedIn(page, createUser, login, '/tos');
    await writeButton(page).click();
    await expect(writeDialog(page)).toBeVisible();
    const text = uniquePostText('From the phone bar');
    await dialogComposer(page).fill(text);
    await writeDialog(page).getByRole('button', { name: 'Post', exact: true }).click();
    await expect(writeDialog(page)).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: 'Your post is published.' }),
    ).toBeVisible();
    await page.goto(`/${user.username}`);
    await expect(postCard(page, text)).toBeVisible();
  });
});

test('Write opens the composer from a profile page, posts, and says where the post is', async ({
  page,
  createUser,
  login,
}) => {
  const user = await signedIn(page, createUser, login);
  const other = await createUser();
  await page.goto(`/${other.username}`);
  await expect(page.getByRole('heading', { name: other.displayName })).toBeVisible();

  await writeButton(page).click();
  const dialog = writeDialog(page);
  await expect(dialog).toBeVisible();
  // Opening the composer means typing next.
  await expect(dialogComposer(page)).toBeFocused();
  const text = uniquePostText('Written from a profile');
  await page.keyboard.type(text);
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();

  await expect(dialog).toHaveCount(0);
  const notice = page.getByRole('status').filter({ hasText: 'Your post is published.' });
  await expect(notice).toBeVisible();
  await expect(writeButton(page)).toBeFocused();
  // Still on the page it was written from.
  await expect(page).toHaveURL(pathIs(`/${other.username}`));

  await notice.getByRole('link', { name: 'View post' }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(postCard(page, text)).toBeVisible();
  await navLink(page, 'Profile').click();
  await expect(page).toHaveURL(pathIs(`/${user.username}`));
  await expect(postCard(page, text)).toBeVisible();
});

test('cancelling Write keeps the page and returns focus', async ({ page, createUser, login }) => {
  await signedIn(page, createUser, login);
  await writeButton(page).click();
  await expect(writeDialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(writeDialog(page)).toHaveCount(0);
  await expect(writeButton(page)).toBeFocused();
  await expect(page).toHaveURL(pathIs('/tos'));
});

test.describe('keyboard shortcuts', () => {
  test('n opens the composer, and g h, g p, g n go home, to the profile and to notifications', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await signedIn(page, createUser, login);
    await pressOnPage(page, 'n');
    await expect(writeDialog(page)).toBeVisible();
    await expect(dialogComposer(page)).toBeFocused();
    // Inside the dialog the letters are text, and no shortcut fires.
    await page.keyboard.type('g h');
    await expect(dialogComposer(page)).toHaveValue('g h');
    await expect(page).toHaveURL(pathIs('/tos'));
    // Emptied, so no draft is kept to be offered back (and guarded) on the feed.
    await dialogComposer(page).fill('');
    await page.keyboard.press('Escape');
    await expect(writeDialog(page)).toHaveCount(0);

    await pressOnPage(page, 'g', 'h');
    await expect(page).toHaveURL(pathIs('/feed'));
    await pressOnPage(page, 'g', 'p');
    await expect(page).toHaveURL(pathIs(`/${user.username}`));
    await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
    await pressOnPage(page, 'g', 'n');
    await expect(page).toHaveURL(pathIs('/notifications'));
  });

  test('/ goes to search with its field focused', async ({ page }) => {
    await page.goto('/tos');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await pressOnPage(page, '/');
    await expect(page).toHaveURL(pathIs('/search'));
    await expect(page.locator('#search-input')).toBeFocused();
    // Typed straight into the search box, not taken as shortcuts.
    await page.keyboard.type('gh');
    await expect(page.locator('#search-input')).toHaveValue('gh');
    await expect(page).toHaveURL(/\/search/);
  });

  test('shortcuts never fire while typing in a text field', async ({ page, createUser, login }) => {
    await signedIn(page, createUser, login, '/feed');
    const box = composer(page);
    await box.click();
    await page.keyboard.type('n?/gh');
    await expect(box).toHaveValue('n?/gh');
    await expect(page).toHaveURL(pathIs('/feed'));
    await expect(writeDialog(page)).toHaveCount(0);
    await expect(shortcutsDialog(page)).toHaveCount(0);
    await expect(postButton(page)).toBeVisible();
  });

  test('g followed too late by h does nothing', async ({ page }) => {
    await page.goto('/tos');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await pressOnPage(page, 'g');
    await page.waitForTimeout(1_300);
    await page.keyboard.press('h');
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(pathIs('/tos'));
  });

  test('? lists the shortcuts', async ({ page, createUser, login }) => {
    await signedIn(page, createUser, login);
    await pressOnPage(page, 'Shift+?');
    const dialog = shortcutsDialog(page);
    await expect(dialog).toBeVisible();
    for (const description of [
      'Write a new post',
      'Search',
      'Go to the home feed',
      'Go to notifications',
      'Go to your profile',
      'Show these keyboard shortcuts',
    ]) {
      await expect(dialog.getByText(description, { exact: true })).toBeVisible();
    }
    await expect(dialog.locator('kbd')).toHaveText(['n', '/', 'g', 'h', 'g', 'n', 'g', 'p', '?']);
    // While it is open, keys are its own.
    await page.keyboard.press('n');
    await expect(writeDialog(page)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('signed out, ? lists only what a visitor can use', async ({ page }) => {
    await page.goto('/tos');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await pressOnPage(page, 'n');
    await expect(writeDialog(page)).toHaveCount(0);
    await pressOnPage(page, 'Shift+?');
    const dialog = shortcutsDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Go to the home feed')).toBeVisible();
    await expect(dialog.getByText('Write a new post')).toHaveCount(0);
    await expect(dialog.getByText('Go to your profile')).toHaveCount(0);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the navigation, the Write dialog and the shortcuts have no serious axe violation', async ({
      page,
      createUser,
      login,
      follow,
    }) => {
      const user = await signedIn(page, createUser, login, '/feed');
      await follow(await createUser(), user);
      await expect(navLink(page, /^Notifications, \d+ unread$/)).toBeVisible();
      await expectNoA11yViolations(page, `navigation (${scheme})`);
      await writeButton(page).click();
      await expect(dialogComposer(page)).toBeFocused();
      await expectNoA11yViolations(page, `Write dialog (${scheme})`);
      await page.keyboard.press('Escape');
      await pressOnPage(page, 'Shift+?');
      await expect(shortcutsDialog(page)).toBeVisible();
      await expectNoA11yViolations(page, `shortcuts dialog (${scheme})`);
    });

    test.describe('on a phone', () => {
      test.use({ viewport: phone });

      test('the bottom bar has no serious axe violation', async ({ page, createUser, login }) => {
        await signedIn(page, createUser, login, '/feed');
        await expectNoA11yViolations(page, `bottom bar (${scheme})`);
        await page.goto('/tos');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoA11yViolations(page, `bottom bar, signed in, terms (${scheme})`);
      });
    });
  });
}
