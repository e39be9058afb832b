import { expect, test } from './fixtures.js';
import { envNames, requiredEnv } from './support/env.js';
import { listMail } from './support/mail.js';
import { escapeRegExp } from './support/ui.js';

// Security mail (issue: notifications, "small things"): a password changed from the settings is told to the
// account's address through the real SMTP sink, with when, from which browser, and the way to take it back.

test('changing the password in the settings mails the account’s address once, with the way back', async ({
  page,
  createUser,
  login,
  readMail,
  appURL,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/settings/account');
  const password = page.getByRole('region', { name: 'Password', exact: true });
  const since = Date.now();
  await password.getByLabel('Current password').fill(user.password);
  await password.getByLabel('New password').fill(`${user.password}-renewed`);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toHaveText('Your password was changed.');

  const subject = /password was changed/i;
  const mail = await readMail(user.email, { since, subject });
  expect(mail.to).toEqual([user.email]);
  expect(mail.text).toContain(`@${user.username} was changed from its account settings`);
  expect(mail.text).toMatch(/When: \w+day \d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC/);
  // The browser the test drives is Chromium on Linux; the mail names it as people know it.
  expect(mail.text).toContain('Device: Chrome on Linux');
  expect(mail.text).not.toContain(`${user.password}-renewed`);

  const resetUrl = `${appURL}/reset-password`;
  expect(mail.text).toMatch(new RegExp(`Reset your password: ${escapeRegExp(resetUrl)}$`, 'm'));
  expect(mail.html).toContain(`href="${resetUrl}"`);

  // Exactly one notice: the change is told once.
  const notices = (await listMail(requiredEnv(envNames.mailDir), user.email)).filter(
    (message) => message.receivedAt >= since && subject.test(message.subject),
  );
  expect(notices).toHaveLength(1);

  // The link leads to the page that sends a reset link.
  await page.goto(new URL(resetUrl).pathname);
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
});
