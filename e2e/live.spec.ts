import { realtimePath, userTopic } from '../src/shared/realtime.js';
import { expect, test } from './fixtures.js';
import type { PageGlobals } from './support/page-globals.js';
import {
  expectSameDocument,
  expectSignedOutNav,
  inactiveNotice,
  markDocument,
  userMenuButton,
} from './support/ui.js';

// spec §7 / DESIGN.md "Live by default": a change to users/{uid} reaches open pages without a reload.

test('an operator deactivating a user signs their open tab out live; reactivation reaches it too', async ({
  page,
  createUser,
  login,
  cliOk,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto(`/${user.username}`);
  await expect(page.getByRole('heading', { name: user.displayName })).toBeVisible();
  await expect(inactiveNotice(page)).toBeHidden();
  await markDocument(page);

  // Deactivation ends every session of the account (issue: moderation and administration §4).
  await cliOk('users', 'set-active', user.username, 'false');
  await expectSignedOutNav(page);
  await expectSameDocument(page);

  await login(page, user);
  await page.goto(`/${user.username}`);
  await expect(inactiveNotice(page)).toBeVisible();
  await markDocument(page);

  await cliOk('users', 'set-active', user.username, 'true');
  await expect(inactiveNotice(page)).toBeHidden();
  await expectSameDocument(page);
});

test('deactivation signs every tab of the user out, and the guard follows it', async ({
  context,
  page,
  createUser,
  login,
  cliOk,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  const second = await context.newPage();
  await second.goto(`/${user.username}/edit-profile`);
  await expect(second.getByRole('heading', { name: /edit (your )?profile/i })).toBeVisible();
  await markDocument(page);

  await cliOk('users', 'set-active', user.username, 'false');
  await expectSignedOutNav(page);
  // spec §2: edit-profile is for signed-in, active users only; the open page leaves it.
  await expect(second).not.toHaveURL(/edit-profile/);
  await expectSameDocument(page);
});

test("a profile name change reaches the owner's other tab and a visitor, live", async ({
  page,
  newPage,
  createUser,
  login,
  appURL,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  await expect(userMenuButton(page, user.displayName)).toBeVisible();
  await markDocument(page);

  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  await expect(visitor.getByRole('heading', { name: user.displayName })).toBeVisible();
  await markDocument(visitor);

  // The profile form is not in the web app yet; the owner's own session changes the name through the API.
  const firstName = `Grace${user.lastName.slice(-3)}`;
  const response = await page.context().request.patch(`/api/users/${user.uid}/profile`, {
    data: { firstName },
    headers: { Origin: appURL },
  });
  expect(response.status(), await response.text()).toBe(200);
  const renamed = `${firstName} ${user.lastName}`;

  await expect(visitor.getByRole('heading', { name: renamed })).toBeVisible();
  await expect(userMenuButton(page, renamed)).toBeVisible();
  await expectSameDocument(page);
  await expectSameDocument(visitor);
});

test("a name saved in the profile form reaches the owner's other tab and a visitor, live", async ({
  page,
  context,
  newPage,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);

  const ownOtherTab = await context.newPage();
  await ownOtherTab.goto(`/${user.username}`);
  await expect(ownOtherTab.getByRole('heading', { name: user.displayName })).toBeVisible();
  await markDocument(ownOtherTab);

  const visitor = await newPage();
  await visitor.goto(`/${user.username}`);
  await expect(visitor.getByRole('heading', { name: user.displayName })).toBeVisible();
  await markDocument(visitor);

  await page.goto(`/${user.username}/edit-profile`);
  const lastName = `Hopper${user.lastName.slice(-3)}`;
  await page.getByLabel('Last name', { exact: true }).fill(lastName);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  const renamed = `${user.firstName} ${lastName}`;

  await expect(ownOtherTab.getByRole('heading', { name: renamed })).toBeVisible();
  await expect(userMenuButton(ownOtherTab, renamed)).toBeVisible();
  await expect(visitor.getByRole('heading', { name: renamed })).toBeVisible();
  await expectSameDocument(ownOtherTab);
  await expectSameDocument(visitor);
});

test('the realtime socket delivers an operator role change on users/{uid}', async ({
  page,
  createUser,
  cliOk,
}) => {
  const user = await createUser();
  await page.goto('/tos');
  // Subscribe from inside the page, the way the app does, and collect every document that arrives.
  await page.evaluate(
    ({ path, topic }) =>
      new Promise<void>((resolve, reject) => {
        const page = globalThis as unknown as PageGlobals;
        const url = new URL(path, page.location.href);
        url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
        const socket = new page.WebSocket(url.toString());
        const received: unknown[] = [];
        page.__hearthE2eDocs = received;
        socket.addEventListener('message', (event) => {
          received.push(JSON.parse(String(event.data)));
        });
        socket.addEventListener('open', () => {
          socket.send(JSON.stringify({ type: 'subscribe', topic }));
          resolve();
        });
        socket.addEventListener('error', () => {
          reject(new Error('the realtime socket failed'));
        });
      }),
    { path: realtimePath, topic: userTopic(user.uid) },
  );
  const roles = () =>
    page.evaluate(() => {
      const docs = ((globalThis as unknown as PageGlobals).__hearthE2eDocs ?? []) as {
        type?: string;
        data?: { role?: string } | null;
      }[];
      return docs.filter((doc) => doc.type === 'doc').map((doc) => doc.data?.role ?? null);
    });
  // The snapshot first (DESIGN.md "Realtime"), then one document per change.
  await expect.poll(roles).toEqual(['user']);
  await cliOk('users', 'set-role', user.username, 'admin');
  await expect.poll(roles).toEqual(['user', 'admin']);
});

test('signing out in one tab signs the other tab out too, without a reload', async ({
  page,
  context,
  createUser,
  login,
}) => {
  const user = await createUser();
  await login(page, user);
  await page.goto('/feed');
  const other = await context.newPage();
  await other.goto('/tos');
  await expect(userMenuButton(other, user.displayName)).toBeVisible();
  await markDocument(other);

  await page.goto('/signout');
  await expect(page).toHaveURL(/\/feed$/);
  await expect(other.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(userMenuButton(other, user.displayName)).toHaveCount(0);
  await expectSameDocument(other);
});
