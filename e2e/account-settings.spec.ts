import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import {
  expect,
  expectNoA11yViolations,
  isolatedRequest,
  newUserInput,
  sessionOf,
  signInViaApi,
  test,
  uniqueIp,
  type Credentials,
  type TestUser,
} from './fixtures.js';
import type { PageGlobals } from './support/page-globals.js';
import {
  collectPageProblems,
  expectSignedOutNav,
  notFoundHeading,
  pathIs,
  userMenuButton,
} from './support/ui.js';

// Account settings at /settings/account (issue: profiles §5): email, password, sessions, deletion.

const settingsPath = '/settings/account';

/** A settings section: a named region (<section aria-labelledby> with its h2). */
function section(page: Page, name: 'Email' | 'Password' | 'Sessions' | 'Delete account'): Locator {
  return page.getByRole('region', { name, exact: true });
}

async function openSettings(
  page: Page,
  user: TestUser,
  login: (page: Page, user: TestUser) => Promise<void>,
): Promise<void> {
  await login(page, user);
  await page.goto(settingsPath);
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
}

/** Whether these credentials sign in, asked from a context of its own. */
async function signInStatus(
  playwright: Parameters<typeof isolatedRequest>[0],
  appURL: string,
  identifier: string,
  password: string,
): Promise<number> {
  const request = await isolatedRequest(playwright, appURL);
  const response = await request.post('/api/auth/sign-in', { data: { identifier, password } });
  const status = response.status();
  await request.dispose();
  return status;
}

/**
 * The sessions list once loaded. A fresh test user already has two: the sign-up call's own session
 * (createUser) and this browser's.
 */
async function sessionRows(page: Page, expected: number): Promise<Locator> {
  const rows = section(page, 'Sessions').getByRole('listitem');
  await expect(rows).toHaveCount(expected);
  return rows;
}

/** A second browser (own cookies, own known client address) signed in as the user. */
async function secondDevice(
  browser: Browser,
  appURL: string,
  user: Credentials,
): Promise<{ context: BrowserContext; ip: string }> {
  const ip = uniqueIp();
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  await signInViaApi(context, appURL, user);
  return { context, ip };
}

test('a signed-out visitor is sent to /login', async ({ page }) => {
  await page.goto(settingsPath);
  await expect(page).toHaveURL(pathIs('/login'));
});

test('password: a wrong current password is refused on its field; a change makes the new one work and the old one fail', async ({
  page,
  createUser,
  login,
  playwright,
  appURL,
}) => {
  const user = await createUser();
  await openSettings(page, user, login);
  const password = section(page, 'Password');
  const newPassword = `${user.password}-new`;

  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password').fill(newPassword);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(password.getByLabel('Current password')).toHaveAccessibleDescription(
    /That password is not right/,
  );

  await password.getByLabel('Current password').fill(user.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toHaveText('Your password was changed.');
  await expect(password.getByLabel('Current password')).toHaveValue('');

  expect(await signInStatus(playwright.request, appURL, user.username, user.password)).not.toBe(
    200,
  );
  expect(await signInStatus(playwright.request, appURL, user.username, newPassword)).toBe(200);
  // This browser stays signed in.
  expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
});

test('sessions: this device and a second one are listed; revoking the second signs it out', async ({
  page,
  browser,
  createUser,
  login,
  appURL,
}) => {
  const user = await createUser();
  const other = await secondDevice(browser, appURL, user);
  const otherPage = await other.context.newPage();
  await otherPage.goto('/feed');
  await expect(userMenuButton(otherPage, user.displayName)).toBeVisible();

  await openSettings(page, user, login);
  const sessions = section(page, 'Sessions');
  const rows = await sessionRows(page, 3);
  const current = rows.filter({ hasText: 'This device' });
  await expect(current).toHaveCount(1);
  await expect(current.getByRole('button')).toHaveCount(0);
  await expect(current).toContainText('Active now');

  const otherRow = rows.filter({ hasText: other.ip });
  await expect(otherRow).toContainText(/Last active/);
  const revoke = otherRow.getByRole('button', { name: /^Revoke / });
  // The button says which device it signs out (the list can hold several of the same browser).
  await expect(revoke).toHaveAccessibleName(
    new RegExp(`^Revoke .+, ${other.ip.replace(/\./g, '\\.')}$`),
  );
  await revoke.click();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: other.ip })).toHaveCount(0);
  await expect(sessions.getByRole('status')).toContainText('was signed out');
  await expect(sessions.getByRole('heading', { name: 'Sessions' })).toBeFocused();

  await otherPage.reload();
  await expectSignedOutNav(otherPage);
  expect(await sessionOf(other.context)).toBeNull();
  await other.context.close();
});

test('password change with "Sign out everywhere else" ends the other sessions only', async ({
  page,
  browser,
  createUser,
  login,
  appURL,
}) => {
  const user = await createUser();
  const other = await secondDevice(browser, appURL, user);
  await openSettings(page, user, login);
  await sessionRows(page, 3);

  const password = section(page, 'Password');
  await password.getByLabel('Current password').fill(user.password);
  await password.getByLabel('New password').fill(`${user.password}-2`);
  await password.getByRole('checkbox', { name: 'Sign out everywhere else' }).check();
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toHaveText(
    'Your password was changed, and your other devices were signed out.',
  );
  const left = await sessionRows(page, 1);
  await expect(left).toContainText('This device');
  expect(await sessionOf(other.context)).toBeNull();
  expect((await sessionOf(page.context()))?.uid).toBe(user.uid);
  await other.context.close();
});

test('email: the link mailed to the new address confirms it, once, signed out or in; the new address signs in', async ({
  page,
  createUser,
  login,
  readMail,
  newPage,
  playwright,
  appURL,
}) => {
  const user = await createUser();
  const newEmail = `new_${user.email}`;
  await openSettings(page, user, login);
  const email = section(page, 'Email');
  await expect(email).toContainText(user.email);

  // A wrong password is refused on its field and mails nothing.
  await email.getByLabel('New email').fill(newEmail);
  await email.getByLabel('Current password').fill('wrong-password');
  await email.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(email.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');

  const since = Date.now();
  await email.getByLabel('Current password').fill(user.password);
  await email.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(email.getByRole('status')).toContainText(
    `We sent a confirmation link to ${newEmail}`,
  );
  // Until the link is followed, the address stays the old one.
  await expect(email).toContainText(user.email);

  const mail = await readMail(newEmail, { since });
  const link = /https?:\/\/\S+emailToken=[\w%-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const url = new URL(link ?? '');

  // Followed signed out: it works, and the token leaves the address bar at once.
  const visitor = await newPage();
  await visitor.goto(url.pathname + url.search);
  await expect(
    visitor.getByRole('heading', { level: 1, name: 'Confirm your email address' }),
  ).toBeVisible();
  await expect(visitor.getByRole('status')).toContainText(`Your email address is now ${newEmail}.`);
  await expect(visitor).toHaveURL(pathIs(settingsPath));
  expect(visitor.url()).not.toContain('emailToken');
  await expect(visitor.getByRole('link', { name: 'Sign in' })).toBeVisible();

  // Followed again, signed in: the link was used up.
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole('alert')).toContainText('This confirmation link no longer works.');
  await expect(page).toHaveURL(pathIs(settingsPath));
  // The settings show the new address (Me was read again).
  await expect(section(page, 'Email')).toContainText(newEmail);

  expect(await signInStatus(playwright.request, appURL, newEmail, user.password)).toBe(200);
});

test('an inactive account sees why its email cannot change, and can still use the rest', async ({
  page,
  createUser,
  login,
  cliOk,
}) => {
  const user = await createUser();
  await cliOk('users', 'set-active', user.username, 'false');
  await openSettings(page, user, login);
  const email = section(page, 'Email');
  await expect(email).toContainText(
    'You can change your email address once an administrator has activated your account.',
  );
  await expect(email.getByLabel('New email')).toBeDisabled();
  await expect(email.getByRole('button', { name: 'Send confirmation link' })).toBeDisabled();
  await expect(section(page, 'Password').getByLabel('Current password')).toBeEnabled();
  // Deactivation ended the session the account was created with; this sign-in is the only one.
  await sessionRows(page, 1);
});

test('delete account: a second step confirms; then signed out, the profile is gone and the username reserved', async ({
  page,
  createUser,
  login,
  playwright,
  appURL,
}) => {
  const user = await createUser();
  await openSettings(page, user, login);
  const danger = section(page, 'Delete account');
  await expect(danger).toContainText(`@${user.username} stays reserved for 90 days`);

  // A wrong password is refused on its field after the confirmation step.
  await danger.getByLabel('Password').fill('wrong-password');
  await danger.getByRole('button', { name: 'Delete account' }).click();
  const question = danger.getByRole('heading', { name: 'Delete your account for good?' });
  await expect(question).toBeFocused();
  // Cancel goes back, with focus on the first button.
  await danger.getByRole('button', { name: 'Cancel' }).click();
  await expect(danger.getByRole('button', { name: 'Delete account' })).toBeFocused();
  await danger.getByRole('button', { name: 'Delete account' }).click();
  await danger.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(danger.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  expect((await sessionOf(page.context()))?.uid).toBe(user.uid);

  await danger.getByLabel('Password').fill(user.password);
  await danger.getByRole('button', { name: 'Delete account' }).click();
  await danger.getByRole('button', { name: 'Yes, delete my account' }).click();

  await expect(page).toHaveURL(pathIs('/feed'));
  await expect(
    page.getByRole('status').filter({ hasText: 'Your account was deleted.' }),
  ).toBeVisible();
  await expectSignedOutNav(page);
  expect(await sessionOf(page.context())).toBeNull();

  await page.goto(`/${user.username}`);
  await expect(notFoundHeading(page)).toBeVisible();

  // The name stays reserved: a new sign-up with it is refused on the username field.
  const request = await isolatedRequest(playwright.request, appURL);
  const again = newUserInput({ username: user.username, email: `again_${user.email}` });
  const response = await request.post('/api/auth/sign-up', { data: again });
  expect(response.status()).toBeGreaterThanOrEqual(400);
  const body = (await response.json()) as { error: { fields?: Record<string, string> } };
  expect(body.error.fields?.username).toBeTruthy();
  await request.dispose();
});

test('the settings page loads without console errors (CSP included)', async ({
  page,
  createUser,
  login,
}) => {
  const problems = collectPageProblems(page);
  const user = await createUser();
  await openSettings(page, user, login);
  await sessionRows(page, 2);
  const danger = section(page, 'Delete account');
  await danger.getByLabel('Password').fill(user.password);
  await danger.getByRole('button', { name: 'Delete account' }).click();
  await expect(danger.getByRole('button', { name: 'Yes, delete my account' })).toBeVisible();
  expect(problems).toEqual([]);
});

test.describe('360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the settings page has no horizontal scroll, also at the confirmation step', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser({ firstName: 'Maximilianus', lastName: 'Featherstonehaugh' });
    await openSettings(page, user, login);
    await sessionRows(page, 2);
    const danger = section(page, 'Delete account');
    await danger.getByLabel('Password').fill(user.password);
    await danger.getByRole('button', { name: 'Delete account' }).click();
    await expect(danger.getByRole('button', { name: 'Yes, delete my account' })).toBeVisible();
    const widths = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      return {
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      };
    });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the settings page, with errors and the confirmation step, has no serious axe violation', async ({
      page,
      createUser,
      login,
    }) => {
      const user = await createUser();
      await openSettings(page, user, login);
      await sessionRows(page, 2);
      await expectNoA11yViolations(page, `account settings (${scheme})`);
      await section(page, 'Password').getByRole('button', { name: 'Change password' }).click();
      await expect(section(page, 'Password').getByLabel('New password')).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      const danger = section(page, 'Delete account');
      await danger.getByLabel('Password').fill('something');
      await danger.getByRole('button', { name: 'Delete account' }).click();
      await expect(danger.getByRole('button', { name: 'Yes, delete my account' })).toBeVisible();
      await expectNoA11yViolations(page, `account settings with errors (${scheme})`);
    });
  });
}
