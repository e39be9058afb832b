import { expect, test } from './fixtures.js';
import { instance } from './support/env.js';
import { footer, pathIs } from './support/ui.js';

// spec §2: footer with Terms of Service, Privacy Policy, a Contact mail link and a copyright line.

const year = new Date().getFullYear();

for (const path of [
  '/feed',
  '/login',
  '/register',
  '/tos',
  '/privacy',
  '/reset-password',
  '/nope/nope',
]) {
  test(`the footer on ${path} has the legal links, the contact link and the copyright`, async ({
    page,
  }) => {
    await page.goto(path);
    const foot = footer(page);
    await expect(foot.getByRole('link', { name: 'Terms of Service', exact: true })).toHaveAttribute(
      'href',
      '/tos',
    );
    await expect(foot.getByRole('link', { name: 'Privacy Policy', exact: true })).toHaveAttribute(
      'href',
      '/privacy',
    );
    await expect(foot.getByRole('link', { name: 'Contact', exact: true })).toHaveAttribute(
      'href',
      `mailto:${instance.contactEmail}`,
    );
    await expect(foot).toContainText(`© ${String(year)} ${instance.name}`);
  });
}

test('the footer is there for a signed-in user on their profile too', async ({
  page,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto(`/${user.username}`);
  await expect(footer(page).getByRole('link', { name: 'Contact', exact: true })).toBeVisible();
  await expect(footer(page)).toContainText(`© ${String(year)} ${instance.name}`);
});

test('the legal links navigate in the app', async ({ page }) => {
  await page.goto('/feed');
  await footer(page).getByRole('link', { name: 'Terms of Service', exact: true }).click();
  await expect(page).toHaveURL(pathIs('/tos'));
  await expect(page.getByRole('heading', { level: 1, name: /terms of service/i })).toBeVisible();
  await footer(page).getByRole('link', { name: 'Privacy Policy', exact: true }).click();
  await expect(page).toHaveURL(pathIs('/privacy'));
  await expect(page.getByRole('heading', { level: 1, name: /privacy policy/i })).toBeVisible();
});
