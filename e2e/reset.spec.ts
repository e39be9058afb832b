import type { Page } from '@playwright/test';
import { expect, test, type Credentials, type Mail } from './fixtures.js';
import { instance } from './support/env.js';
import { escapeRegExp } from './support/ui.js';

// Password reset through the real SMTP sink: request → mail → link → new password; the link works once.

async function requestReset(page: Page, email: string): Promise<void> {
  await page.goto('/reset-password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/on its way|check your (e-?mail|inbox)|sent/i).first()).toBeVisible();
}

function resetLinkIn(mail: Mail, appURL: string): URL {
  const pattern = new RegExp(`${escapeRegExp(appURL)}/reset-password\\?token=[A-Za-z0-9._~%-]+`);
  const inText = pattern.exec(mail.text)?.[0];
  expect(inText, `a reset link in the text part:\n${mail.text}`).toBeTruthy();
  const inHtml = pattern.exec(mail.html.replace(/&amp;/g, '&'))?.[0];
  expect(inHtml, 'the same link in the html part').toBe(inText);
  return new URL(inText ?? '');
}

async function setNewPassword(page: Page, link: URL, password: string): Promise<void> {
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();
}

async function signInStatus(page: Page, appURL: string, user: Credentials, password: string) {
  const response = await page.context().request.post('/api/auth/sign-in', {
    data: { identifier: user.email, password },
    headers: { Origin: appURL },
  });
  return response.status();
}

test('the full reset flow: mail, link, new password; the old one stops working', async ({
  page,
  createUser,
  readMail,
  appURL,
}) => {
  const user = await createUser();
  const since = Date.now();
  await requestReset(page, user.email);

  const mail = await readMail(user.email, { since });
  expect(mail.subject).toMatch(/reset|password/i);
  expect(mail.raw).toMatch(new RegExp(`^From:.*${escapeRegExp(instance.mailFrom)}`, 'im'));
  const link = resetLinkIn(mail, appURL);

  const newPassword = `Renewed-${Date.now().toString(36)}-Pw`;
  await setNewPassword(page, link, newPassword);
  await expect(
    page
      .getByText(/password (has been |was )?(changed|reset|updated|set)|new password is set/i)
      .first(),
  ).toBeVisible();

  expect(await signInStatus(page, appURL, user, user.password)).toBe(401);
  expect(await signInStatus(page, appURL, user, newPassword)).toBe(200);
});

test('a used reset link is refused', async ({ page, createUser, readMail, appURL }) => {
  const user = await createUser();
  const since = Date.now();
  await requestReset(page, user.email);
  const link = resetLinkIn(await readMail(user.email, { since }), appURL);

  const first = `First-${Date.now().toString(36)}-Pw`;
  await setNewPassword(page, link, first);
  await expect(
    page
      .getByText(/password (has been |was )?(changed|reset|updated|set)|new password is set/i)
      .first(),
  ).toBeVisible();

  const second = `Second-${Date.now().toString(36)}-Pw`;
  await setNewPassword(page, link, second);
  await expect(page.getByRole('alert').filter({ hasText: /./ })).toContainText(
    /invalid|expired|used|no longer/i,
  );
  expect(await signInStatus(page, appURL, user, second)).toBe(401);
  expect(await signInStatus(page, appURL, user, first)).toBe(200);
});

test('the mailed link points at this instance with a long token', async ({
  page,
  createUser,
  readMail,
  appURL,
}) => {
  const user = await createUser();
  const since = Date.now();
  await requestReset(page, user.email);
  const link = resetLinkIn(await readMail(user.email, { since }), appURL);
  expect(link.pathname).toBe('/reset-password');
  expect(link.searchParams.get('token')?.length ?? 0).toBeGreaterThanOrEqual(16);
});

test('a mismatched confirmation is caught before anything is sent', async ({ page }) => {
  await page.goto('/reset-password?token=whatever-token');
  await page.getByLabel('New password', { exact: true }).fill('Mismatch-one-1');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Mismatch-two-2');
  let posted = false;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/reset-password')) posted = true;
  });
  await page.getByRole('button', { name: 'Set new password' }).click();
  const confirm = page.getByLabel('Confirm new password', { exact: true });
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');
  await expect(confirm).toHaveAccessibleDescription(/match/i);
  expect(posted).toBe(false);
});

test('an unknown address gets the same answer and no mail', async ({ page, readMail }) => {
  const email = `nobody_${Date.now().toString(36)}@example.test`;
  await requestReset(page, email);
  await expect(readMail(email, { timeout: 3_000 })).rejects.toThrow(/no mail/i);
});

test('a made-up token is refused', async ({ page }) => {
  await page.goto('/reset-password?token=made-up-token-123456');
  await page.getByLabel('New password', { exact: true }).fill('Made-up-token-Pw1');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Made-up-token-Pw1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /./ })).toContainText(
    /invalid|expired|used|no longer/i,
  );
});
