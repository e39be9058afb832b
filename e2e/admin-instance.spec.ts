import { expect, expectNoA11yViolations, test, type TestUser } from './fixtures.js';

// The console's instance page (issue: moderation and administration §4, "Instance" and "Audit log"): an
// administrator's rules appear at sign-up and at /about/moderation; publishing the moderation log shows
// what moderators did without who did it or anything private; axe is clean in light and dark.

async function makeStaff(
  createUser: () => Promise<TestUser>,
  cliOk: (...args: string[]) => Promise<unknown>,
  role: 'admin' | 'moderator',
): Promise<TestUser> {
  const person = await createUser();
  await cliOk('users', 'set-role', person.username, role);
  return person;
}

test.describe('instance settings, rules and the moderation logs', () => {
  test('an administrator adds rules that people see at sign-up and on the moderation page', async ({
    page,
    newPage,
    createUser,
    cliOk,
    login,
  }) => {
    const admin = await makeStaff(createUser, cliOk, 'admin');
    await login(page, admin);
    await page.goto('/admin/instance');
    await expect(page.getByRole('heading', { level: 1, name: 'Instance' })).toBeVisible();

    const rule = `Be kind ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: /New rule/ }).fill(rule);
    await page
      .getByRole('textbox', { name: /Explanation/ })
      .fill('Disagree with ideas, not people.');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect(page.getByText('Rule added.')).toBeVisible();
    await expect(page.getByText(rule, { exact: true })).toBeVisible();

    const visitor = await newPage();
    try {
      await visitor.goto('/signup');
      const rules = visitor.getByRole('region', { name: 'By signing up you agree to the rules' });
      await expect(rules.getByText(rule, { exact: true })).toBeVisible();
      await rules.getByRole('link', { name: 'How this instance is moderated' }).click();
      await expect(visitor).toHaveURL(/\/about\/moderation$/);
      await expect(visitor.getByText(rule, { exact: true })).toBeVisible();
      await expect(visitor.getByText('Disagree with ideas, not people.').first()).toBeVisible();
    } finally {
      await visitor.close();
    }

    // Tidy up, so other specs see the instance as it was.
    await page
      .getByRole('listitem')
      .filter({ hasText: rule })
      .getByRole('button', { name: /^Delete rule/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete rule' }).click();
    await expect(page.getByText('Rule deleted.')).toBeVisible();
  });

  test('publishing the moderation log shows actions without who did them or anything private', async ({
    page,
    newPage,
    createUser,
    cliOk,
    login,
  }) => {
    const admin = await makeStaff(createUser, cliOk, 'admin');
    await login(page, admin);

    const visitor = await newPage();
    try {
      await visitor.goto('/about/moderation');
      await expect(
        visitor.getByRole('heading', { name: 'The moderation log is not published' }),
      ).toBeVisible();

      await page.goto('/admin/instance');
      const publish = page.getByRole('checkbox', { name: 'Publish the moderation log' });
      await publish.check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Settings saved.')).toBeVisible();

      // An action that is public: a rule added (and then deleted, leaving the instance as it was).
      const rule = `Stay on topic ${Date.now().toString(36)}`;
      await page.getByRole('textbox', { name: /New rule/ }).fill(rule);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await expect(page.getByText('Rule added.')).toBeVisible();

      await visitor.reload();
      const log = visitor.getByRole('list', { name: 'Moderation actions' });
      // The public log carries no details, so it says what kind of change it was, not which.
      const entry = log.getByRole('listitem').filter({ hasText: 'Moderators changed the rules' });
      await expect(entry.first()).toBeVisible();
      // Never who acted (the CLI's role change names the administrator as its target, not its actor).
      expect(await entry.first().textContent()).not.toContain(admin.username);
      const body = (await log.textContent()) ?? '';
      expect(body).not.toContain('operator');
      expect(body).not.toContain('Moderators only');

      // The audit log, for staff, names who did it.
      await page.goto(`/admin/audit?actor=${admin.username}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      await expect(page.getByText(`@${admin.username}`).first()).toBeVisible();
      await expect(page.getByText('added a rule').first()).toBeVisible();
      await expect(page.getByText('changed the instance settings').first()).toBeVisible();

      await page.goto('/admin/instance');
      const item = page.getByRole('listitem').filter({ hasText: rule });
      await item.getByRole('button', { name: /^Delete rule/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete rule' }).click();
      await expect(page.getByText('Rule deleted.')).toBeVisible();
      await page.getByRole('checkbox', { name: 'Publish the moderation log' }).uncheck();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Settings saved.')).toBeVisible();
    } finally {
      await visitor.close();
    }
  });

  test('moderators see the settings and rules but cannot change them', async ({
    page,
    createUser,
    cliOk,
    login,
  }) => {
    const moderator = await makeStaff(createUser, cliOk, 'moderator');
    await login(page, moderator);
    await page.goto('/admin/instance');
    await expect(page.getByText('Only administrators can change these settings.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add rule' })).toHaveCount(0);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the instance, audit and public log pages pass axe in ${scheme}`, async ({
      page,
      createUser,
      cliOk,
      login,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const admin = await makeStaff(createUser, cliOk, 'admin');
      await login(page, admin);
      await page.goto('/admin/instance');
      await expect(page.getByRole('button', { name: 'Save settings' })).toBeVisible();
      await expectNoA11yViolations(page, `/admin/instance (${scheme})`);
      await page.goto('/admin/audit');
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible();
      await page.getByText(/Loading the audit log/).waitFor({ state: 'detached' });
      await expectNoA11yViolations(page, `/admin/audit (${scheme})`);
      await page.goto('/about/moderation');
      await expect(page.getByRole('heading', { level: 2, name: 'Moderation log' })).toBeVisible();
      await page
        .getByText(/Loading the/)
        .first()
        .waitFor({ state: 'detached' });
      await expectNoA11yViolations(page, `/about/moderation (${scheme})`);
    });
  }
});
