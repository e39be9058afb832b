import type { Page } from '@playwright/test';
import { expect, expectNoA11yViolations, test, uniquePostText } from './fixtures.js';
import { pngFile } from './support/images.js';
import type { PageGlobals } from './support/page-globals.js';
import { collectPageProblems } from './support/ui.js';

// The installable app (issue: performance §6, ADR 0025): the manifest and its icons, the service worker's
// precache, the offline page, and nothing signed-in or private in any cache.

/** The worker and Cache Storage globals the in-page functions below touch (tsconfig.json has no DOM lib). */
interface WorkerGlobals {
  navigator: {
    serviceWorker: {
      controller: object | null;
      ready: Promise<{ active: { state: string } | null }>;
    };
  };
  caches: {
    keys: () => Promise<string[]>;
    open: (name: string) => Promise<{ keys: () => Promise<{ url: string }[]> }>;
  };
  fetch: (url: string) => Promise<{ status: number }>;
}

function pageBackground(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    return getComputedStyle(document.body).backgroundColor;
  });
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every URL in every Cache Storage cache of the page's origin. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const { caches } = globalThis as unknown as WorkerGlobals;
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
}

test('the manifest names the app and every icon it lists is a PNG of its stated size', async ({
  page,
  request,
}) => {
  await page.goto('/feed');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/manifest.webmanifest',
  );
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', /\.png$/);
  expect(await page.locator('meta[name="theme-color"]').count()).toBe(2);

  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest.name).not.toBe('');
  expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toBe('image/png');
    const [width, height] = icon.sizes.split('x').map(Number);
    expect(pngSize(await file.body()), icon.src).toEqual({ width, height });
  }
});

test('the service worker serves the app shell, shows the offline page without a connection, and caches no API answer', async ({
  page,
  context,
  createUser,
  createPost,
  login,
}) => {
  test.slow();
  const problems = collectPageProblems(page);
  const author = await createUser();
  const text = uniquePostText('Cached or not');
  await createPost(author, {
    body: text,
    images: [{ file: await pngFile('hearth.png', 320, 200), alt: 'A red square' }],
  });
  await login(page, author);

  await page.goto('/feed');
  await expect(page.getByText(text)).toBeVisible();
  // The worker takes control of the open page as soon as it has precached the shell.
  await page.waitForFunction(
    () => (globalThis as unknown as WorkerGlobals).navigator.serviceWorker.controller !== null,
    undefined,
    {
      timeout: 30_000,
    },
  );
  const state = await page.evaluate(async () => {
    const { navigator } = globalThis as unknown as WorkerGlobals;
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
  expect(state).toBe('activated');

  // A repeat visit: the page's scripts come from the worker's cache; its API answers from the server.
  const fromWorker: string[] = [];
  const apiFromWorker: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (!response.fromServiceWorker()) return;
    if (pathname.startsWith('/assets/')) fromWorker.push(pathname);
    if (pathname.startsWith('/api/') || pathname.startsWith('/media/'))
      apiFromWorker.push(pathname);
  });
  await page.reload();
  await expect(page.getByText(text)).toBeVisible();
  await expect(page.getByRole('img', { name: 'A red square' }).first()).toBeVisible();
  const sessionStatus = await page.evaluate(() =>
    (globalThis as unknown as WorkerGlobals)
      .fetch('/api/auth/session')
      .then((response) => response.status),
  );
  expect(sessionStatus).toBe(200);
  expect(fromWorker.some((pathname) => pathname.endsWith('.js'))).toBe(true);
  expect(apiFromWorker).toEqual([]);

  const cached = await cachedUrls(page);
  expect(cached.some((pathname) => pathname.startsWith('/assets/'))).toBe(true);
  expect(cached).toContain('/offline/index.html');
  expect(cached.filter((pathname) => /^\/(api|media)\//.test(pathname))).toEqual([]);
  expect(cached).not.toContain('/index.html');
  expect(problems).toEqual([]);

  // Offline: a reload shows the designed page, not the browser's error.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/feed');
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  expect(await pageBackground(page)).toBe('rgb(251, 246, 240)');
  await expectNoA11yViolations(page, 'offline page, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await pageBackground(page)).toBe('rgb(26, 20, 17)');
  await expectNoA11yViolations(page, 'offline page, dark');

  // Retry asks the network again (a new load of the same address); offline, that is this page again.
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).__hearthE2eMarker = true;
  });
  await retry.click();
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).__hearthE2eMarker === undefined,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  // When the connection comes back, the page goes back to the feed by itself.
  await context.setOffline(false);
  await expect(page.getByText(text)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/feed');
});
