import { endpointTags } from '../src/shared/contract/endpoint.js';
import { endpoints, endpointList } from '../src/shared/contract/index.js';
import { expect, test } from './fixtures.js';
import { instance } from './support/env.js';
import { collectPageProblems } from './support/ui.js';

// ADR 0012: /api/docs renders the generated OpenAPI document with Swagger UI, under the app's strict CSP.

/** The in-page globals this spec touches (tsconfig.json has no DOM lib; page functions are serialised). */
interface ViolationGlobals {
  document: {
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (event: { violatedDirective: string; blockedURI: string }) => void,
    ): void;
  };
  __cspViolations?: string[];
}

test('the API reference lists every tag and operation, with no CSP violation or console error', async ({
  page,
}) => {
  const problems = collectPageProblems(page);
  await page.addInitScript(() => {
    const globals = globalThis as unknown as ViolationGlobals;
    const violations: string[] = [];
    globals.__cspViolations = violations;
    globals.document.addEventListener('securitypolicyviolation', (event) => {
      violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  await page.goto('/api/docs');
  await expect(page).toHaveTitle(`${instance.name} API reference`);
  await expect(page.getByRole('heading', { name: `${instance.name} API` })).toBeVisible();
  for (const tag of endpointTags) {
    await expect(page.locator(`.opblock-tag[data-tag="${tag}"]`), tag).toBeVisible();
  }
  await expect(page.locator('.opblock')).toHaveCount(endpointList.length);
  for (const endpoint of endpointList) {
    const block = page.locator(`#operations-${endpoint.tag}-${endpoint.id}`);
    await expect(block, endpoint.id).toContainText(endpoint.summary);
    await expect(block, endpoint.id).toContainText(endpoint.id);
  }
  await expect(page.locator(`#operations-Posts-createPost`)).toContainText('Write a post');
  await expect(page.locator(`#operations-Posts-getFeed`)).toContainText('A page of the feed');

  // Trying an operation calls the API from the page: allowed by connect-src 'self'.
  const feed = page.locator(`#operations-${endpoints.getFeed.tag}-${endpoints.getFeed.id}`);
  await feed.locator('.opblock-summary-control').click();
  await feed.getByRole('button', { name: 'Try it out' }).click();
  await feed.getByRole('button', { name: 'Execute' }).click();
  await expect(feed.locator('.live-responses-table .response-col_status').nth(1)).toHaveText(
    /^200/,
  );

  const violations = await page.evaluate(
    () => (globalThis as unknown as ViolationGlobals).__cspViolations ?? [],
  );
  expect(violations).toEqual([]);
  expect(problems).toEqual([]);
});

test("the app's own pages never load Swagger UI", async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/feed');
  await expect(page.getByRole('main')).toBeVisible();
  expect(requested.filter((path) => path.startsWith('/api/docs'))).toEqual([]);
});
