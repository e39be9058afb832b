import type { Page } from '@playwright/test';
import { displayNameOf } from '../src/shared/display-name.js';
import { expect, expectNoA11yViolations, newUserInput, test, type TestUser } from './fixtures.js';
import { expectNoSidewaysScroll } from './support/layout.js';

// The console's users section (issue: moderation and administration §4 "Users", §6): a sign-up in
// approval mode answers the instance's question, an administrator approves it from the console and the
// applicant can post; roles change from the same page; axe is clean on both pages in light and dark.

const question = 'What brings you to this instance?';

async function openApplicant(admin: Page, name: string): Promise<void> {
  await admin.goto('/admin/users?state=pending');
  await expect(admin.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await admin.getByRole('link', { name, exact: true }).click();
  await expect(admin.getByRole('heading', { level: 1, name })).toBeVisible();
}

test.describe('users administration', () => {
  test('an applicant answers the question, an administrator approves them, they post; roles change', async ({
    page,
    newPage,
    createUser,
    cliOk,
    login,
    apiAs,
  }) => {
    const admin: TestUser = await createUser();
    await cliOk('users', 'set-role', admin.username, 'admin');
    const adminApi = await apiAs(admin);
    const applicant = newUserInput();
    const name = displayNameOf(applicant);

    const visitor = await newPage();
    // Approval mode for as short a time as the sign-up takes: other specs sign people up meanwhile.
    const approval = await adminApi.patch('/api/admin/instance', {
      data: { registrationMode: 'approval', signupQuestion: question },
    });
    expect(approval.status(), await approval.text()).toBe(200);
    try {
      await visitor.goto('/signup');
      await expect(visitor.getByText(/reviewed by the moderators/)).toBeVisible();
      await visitor.getByLabel('Email', { exact: true }).fill(applicant.email);
      await visitor.getByLabel('Username', { exact: true }).fill(applicant.username);
      await visitor.getByLabel('Password', { exact: true }).fill(applicant.password);
      await visitor.getByLabel('First name', { exact: true }).fill(applicant.firstName);
      await visitor.getByLabel('Last name', { exact: true }).fill(applicant.lastName);
      // The answer is required.
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await expect(visitor.getByText('Answer the question.')).toBeVisible();
      await visitor.getByLabel(question).fill('I bake bread and want to share it.');
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await expect(visitor).toHaveURL(new RegExp(`/${applicant.username}$`));
    } finally {
      const open = await adminApi.patch('/api/admin/instance', {
        data: { registrationMode: 'open', signupQuestion: null },
      });
      expect(open.status(), await open.text()).toBe(200);
    }
    await expect(visitor.getByText(/Your sign-up is awaiting approval/)).toBeVisible();

    await login(page, admin);
    await openApplicant(page, name);
    await expect(page.getByText('I bake bread and want to share it.')).toBeVisible();
    await expect(page.getByText('Awaiting approval', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Approve sign-up' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve @${applicant.username}?` });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Sign-up approved. They have been emailed.')).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();

    // The applicant can post now.
    const applicantApi = await apiAs(applicant);
    const posted = await applicantApi.post('/api/posts', { data: { body: 'My first loaf' } });
    expect(posted.status(), await posted.text()).toBe(201);
    await visitor.reload();
    await expect(visitor.getByText(/Your sign-up is awaiting approval/)).toHaveCount(0);

    // Role change: a reason is optional; the badge follows.
    await page.getByRole('button', { name: 'Change role' }).click();
    const roleDialog = page.getByRole('dialog', {
      name: `Change the role of @${applicant.username}`,
    });
    await roleDialog.getByLabel('New role').selectOption('moderator');
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await expect(page.getByText('Role changed.')).toBeVisible();
    await expect(page.getByText('Moderator', { exact: true })).toBeVisible();
    await expect(page.getByText('Role changed', { exact: true })).toBeVisible();
  });

  test('the users pages are clean under axe in light and dark, from 360 px', async ({
    page,
    createUser,
    cliOk,
    login,
  }) => {
    const admin = await createUser();
    await cliOk('users', 'set-role', admin.username, 'admin');
    const person = await createUser();
    await login(page, admin);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`/admin/users?q=${person.username}`);
      await expect(page.getByRole('link', { name: person.displayName, exact: true })).toBeVisible();
      await expectNoA11yViolations(page, `users list (${scheme})`);
      await page.setViewportSize({ width: 360, height: 800 });
      await expectNoSidewaysScroll(page);
      await page.getByRole('link', { name: person.displayName, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: person.displayName })).toBeVisible();
      await expectNoA11yViolations(page, `user detail (${scheme})`);
    }
  });
});
