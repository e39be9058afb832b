import { expect, test } from './fixtures.js';
import { expectSameDocument, markDocument, notFoundHeading, pathIs } from './support/ui.js';

/** The history API as the in-page function below uses it (tsconfig.json has no DOM lib). */
interface PageHistory {
  history: { pushState: (state: null, unused: string, url: string) => void };
  dispatchEvent: (event: object) => boolean;
  PopStateEvent: new (type: string) => object;
}

// Issue "Notifications, search and the everyday things", small things: /@username and linked bios.

test('/@Username lands on the profile at /username', async ({ page, createUser }) => {
  const user = await createUser();
  await page.goto(`/@${user.username.toUpperCase()}`);
  await expect(page).toHaveURL(pathIs(`/${user.username}`));
  await expect(page.getByRole('heading', { level: 1, name: user.displayName })).toBeVisible();
});

test('/@username reached inside the app replaces itself with /username', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await page.goto('/tos');
  await markDocument(page);
  // A client-side visit, as the router sees one: the server's redirect is not involved.
  await page.evaluate((path) => {
    const window = globalThis as unknown as PageHistory;
    window.history.pushState(null, '', path);
    window.dispatchEvent(new window.PopStateEvent('popstate'));
  }, `/@${user.username}`);
  await expect(page).toHaveURL(pathIs(`/${user.username}`));
  await expect(page.getByRole('heading', { level: 1, name: user.displayName })).toBeVisible();
  await expectSameDocument(page);
  await page.goBack();
  await expect(page).toHaveURL(pathIs('/tos'));
});

test('/@ with no such account shows the profile-not-found state', async ({ page }) => {
  const nobody = `nobody_${Date.now().toString(36)}`;
  const response = await page.goto(`/@${nobody}`);
  expect(response?.status()).toBe(404);
  await expect(notFoundHeading(page)).toBeVisible();
  await expect(page.getByText(`No one here goes by @${nobody}.`)).toBeVisible();
});

test('/@ followed by a route word shows not-found instead of that route', async ({ page }) => {
  await page.goto('/@feed');
  await expect(notFoundHeading(page)).toBeVisible();
  await expect(page).toHaveURL(pathIs('/@feed'));
});

test('a bio links its #tags and the @mentions of existing accounts', async ({
  page,
  createUser,
  apiAs,
}) => {
  const [owner, friend] = await Promise.all([createUser(), createUser()]);
  const nobody = `nobody_${Date.now().toString(36)}`;
  const api = await apiAs(owner);
  const saved = await api.patch(`/api/users/${owner.uid}/profile`, {
    data: { bio: `Building with @${friend.username} (not @${nobody}) #OpenSource` },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto(`/${owner.username}`);
  const bio = page.getByRole('article').getByText('Building with');
  await expect(bio).toBeVisible();
  await expect(bio.getByRole('link', { name: `@${friend.username}` })).toHaveAttribute(
    'href',
    `/${friend.username}`,
  );
  await expect(bio.getByRole('link', { name: '#OpenSource' })).toHaveAttribute(
    'href',
    '/tags/opensource',
  );
  await expect(bio.getByRole('link')).toHaveCount(2);
  await expect(bio).toContainText(`not @${nobody}`);

  await bio.getByRole('link', { name: `@${friend.username}` }).click();
  await expect(page).toHaveURL(pathIs(`/${friend.username}`));
  await expect(page.getByRole('heading', { level: 1, name: friend.displayName })).toBeVisible();
});
