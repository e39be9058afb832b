import type { Page, Response } from '@playwright/test';
import { expect, test, uniquePostText } from './fixtures.js';
import { composer, findInFeed } from './support/posts.js';
import { watchCsp } from './support/csp.js';
import { staticImportsIn } from '../scripts/static-imports.mjs';

// How the web app reaches the browser (issue: performance §5, ADR 0024): its code precompressed, its
// pages compressed, no public source maps, and no page load that trips the CSP (zod runs jitless).

/** The document, JS and CSS answers of a page load, with their content coding. */
function recordCode(page: Page): { url: string; encoding: string | null; vary: string }[] {
  const seen: { url: string; encoding: string | null; vary: string }[] = [];
  page.on('response', (response: Response) => {
    const { pathname } = new URL(response.url());
    const kind = response.request().resourceType();
    if (kind !== 'document' && kind !== 'script' && kind !== 'stylesheet') return;
    if (response.status() !== 200) return;
    const headers = response.headers();
    seen.push({
      url: pathname,
      encoding: headers['content-encoding'] ?? null,
      vary: headers.vary ?? '',
    });
  });
  return seen;
}

test('a feed load arrives brotli-compressed and trips no CSP rule', async ({
  page,
  createUser,
  createPost,
}) => {
  const readCsp = await watchCsp(page);
  const code = recordCode(page);
  const author = await createUser();
  const text = uniquePostText('Delivered compressed');
  await createPost(author, { body: text });

  await page.goto('/');
  await findInFeed(page, text);
  // The entry's own module and stylesheet, named by the page.
  const entry = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
  const styles = await page
    .locator('link[rel="stylesheet"][href^="/assets/"]')
    .first()
    .getAttribute('href');
  expect(entry).toBeTruthy();
  expect(styles).toBeTruthy();

  const byUrl = new Map(code.map((answer) => [answer.url, answer]));
  for (const url of ['/', entry ?? '', styles ?? '']) {
    expect(byUrl.get(url)?.encoding, url).toBe('br');
    expect(byUrl.get(url)?.vary.toLowerCase(), url).toContain('accept-encoding');
  }
  // Whatever code is compressed at all is brotli, the smallest coding the browser accepts.
  for (const answer of code) {
    expect([null, 'br'], answer.url).toContain(answer.encoding);
  }

  // Later pages of the same visit load more code: still nothing trips the CSP.
  await page.goto('/search');
  await expect(page.getByRole('searchbox').first()).toBeVisible();
  expect(await readCsp()).toEqual([]);
});

test('a signed-in feed with its composer loads no zod, nor does the page-performance reporter', async ({
  page,
  createUser,
  login,
}) => {
  // zod is the one library that writes `$ZodType` into its code: the forms that check with it load it
  // when they open, the feed and what loads after it never do (issue 13).
  const scripts: { url: string; body: Promise<string> }[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script' || response.status() !== 200) return;
    scripts.push({ url: new URL(response.url()).pathname, body: response.text() });
  });
  const reader = await createUser();
  await login(page, reader);
  await page.goto('/feed');
  await expect(composer(page)).toBeVisible();
  // The reporter comes once the page has settled, on every load (it samples after it arrives).
  await expect
    .poll(() => scripts.some((script) => script.url.includes('/web-vitals-reporter-')))
    .toBe(true);
  await page.waitForLoadState('networkidle');
  const withZod: string[] = [];
  for (const script of scripts)
    if ((await script.body).includes('$ZodType')) withZod.push(script.url);
  expect(scripts.length).toBeGreaterThan(3);
  expect(withZod).toEqual([]);
});

test('a signed-in feed announces its whole first load in its head, in few files', async ({
  page,
  request,
  createUser,
  createPost,
  login,
}) => {
  // The head names every script the feed's first paint needs (ADR 0034): the entry, the feed page's chunk
  // and all they import statically. Over HTTP/1.1 a browser keeps six connections to a server, so each
  // of those files costs a turn on one of them: the code the lazy pages share comes in a few chunks, not
  // dozens (ADR 0037).
  const reader = await createUser();
  const text = uniquePostText('Announced in the head');
  await createPost(reader, { body: text });
  await login(page, reader);
  await page.goto('/feed');
  await findInFeed(page, text);
  // The page as the server sent it: once the app runs, it adds links of its own for later imports.
  const html = await (await page.request.get('/feed')).text();
  const announced = [
    ...html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g),
  ].map(([, url]) => url ?? '');
  expect(announced.some((url) => /^\/assets\/feed-page-[\w-]+\.js$/.test(url))).toBe(true);

  const unannounced: string[] = [];
  for (const url of new Set(announced)) {
    for (const file of staticImportsIn(await (await request.get(url)).text())) {
      if (!announced.includes(`/assets/${file}`)) unannounced.push(`${url} → ${file}`);
    }
  }
  expect(unannounced).toEqual([]);
  expect(new Set(announced).size).toBeLessThanOrEqual(16);
});

test('source maps are not published and the code does not point at them', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const entry = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
  expect(entry).toMatch(/^\/assets\/.+\.js$/);
  const script = await request.get(entry ?? '');
  expect(script.status()).toBe(200);
  expect(await script.text()).not.toContain('sourceMappingURL');
  for (const url of [`${entry ?? ''}.map`, `${entry ?? ''}.br`, `${entry ?? ''}.gz`]) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(404);
  }
});

test('built code is chosen by Accept-Encoding, and served as it is without one', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const entry =
    (await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src')) ?? '';
  const plain = await request.get(entry, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  const source = await plain.text();
  for (const [header, expected] of [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br', 'br'],
  ] as const) {
    const response = await request.get(entry, { headers: { 'accept-encoding': header } });
    expect(response.status(), header).toBe(200);
    expect(response.headers()['content-encoding'], header).toBe(expected);
    expect(response.headers()['content-type'], header).toMatch(/javascript/);
    expect(response.headers()['cache-control'], header).toContain('immutable');
    // The client decodes it back to the very same code.
    expect(await response.text(), header).toBe(source);
  }
});
