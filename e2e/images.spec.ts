import type { Page } from '@playwright/test';
import { postPath, profilePath } from '../src/shared/paths.js';
import { expect, test, uniquePostText } from './fixtures.js';
import { jpegFile } from './support/images.js';
import { findInFeed, postCard } from './support/posts.js';

// Images that keep the page still and fast on a phone (issue: performance §5): every user image has its
// size and the renditions that exist; the page's largest picture is fetched at once and first, the rest
// lazily. Touch targets are at least 24×24 CSS px at a phone's width.

const phone = { width: 360, height: 740 };

/** Every resource the page has fetched: its address, and what asked for it (`link` for a preload). */
function fetchedResources(page: Page): Promise<{ name: string; initiator: string }[]> {
  return page.evaluate(() =>
    (
      globalThis as unknown as {
        performance: {
          getEntriesByType: (type: string) => { name: string; initiatorType: string }[];
        };
      }
    ).performance
      .getEntriesByType('resource')
      .map((entry) => ({ name: entry.name, initiator: entry.initiatorType })),
  );
}

/** An <img> as seen from a page function: the rendition the browser chose. */
interface ChosenImage {
  currentSrc: string;
}

/** The few DOM members the target check reads (the specs' tsconfig has no DOM lib). */
interface TargetElement {
  tagName: string;
  className: string;
  textContent: string | null;
  getAttribute: (name: string) => string | null;
  getBoundingClientRect: () => { width: number; height: number };
  closest: (selector: string) => TargetElement | null;
  parentElement: { textContent: string | null } | null;
}

interface TargetGlobals {
  document: { querySelectorAll: (selector: string) => Iterable<TargetElement> };
  getComputedStyle: (element: TargetElement) => { visibility: string; display: string };
}

/** The feed's first image, in the post at the top. */
function firstFeedImage(page: Page) {
  return page.locator('.post-list article.post').first().locator('img.post-images__image').first();
}

test('the first feed image loads eagerly with high priority; every post image has a size and a srcset', async ({
  page,
  createUser,
  createPost,
}) => {
  const author = await createUser();
  const older = uniquePostText('Older pictures');
  await createPost(author, {
    body: older,
    images: [
      { file: await jpegFile('a.jpg', 1400, 1000), alt: 'A' },
      { file: await jpegFile('b.jpg', 900, 900), alt: 'B' },
    ],
  });
  const newest = uniquePostText('Newest picture');
  await createPost(author, {
    body: newest,
    images: [{ file: await jpegFile('c.jpg', 1600, 900), alt: 'C' }],
  });

  await page.setViewportSize(phone);
  await page.goto('/feed');
  await findInFeed(page, newest);
  // The server preloads what the app asks for first, as the app asks for it: the session, the instance
  // and the feed's first page. One fetch of each, by the preload.
  const fetchPreloads = page.locator('head link[rel="preload"][as="fetch"]');
  const preloaded = ['/api/auth/session', '/api/instance', '/api/feed?tab=everyone'];
  await expect(fetchPreloads).toHaveCount(preloaded.length);
  for (const [index, address] of preloaded.entries()) {
    await expect(fetchPreloads.nth(index)).toHaveAttribute('href', address);
  }
  const apiFetches = (await fetchedResources(page))
    .filter((entry) => preloaded.some((address) => entry.name.endsWith(address)))
    .map(
      (entry) => `${new URL(entry.name).pathname}${new URL(entry.name).search} ${entry.initiator}`,
    );
  expect(apiFetches.sort()).toEqual(preloaded.map((address) => `${address} link`).sort());
  // Other tests write posts too: the lead image is the first of the list's top post, whoever wrote it.
  const lead = firstFeedImage(page);
  await expect(lead).toHaveAttribute('fetchpriority', 'high');
  await expect(lead).toHaveAttribute('loading', 'eager');
  // The head names that image too, with its srcset and sizes: the browser fetches it with the scripts,
  // before the feed's answer arrives, and the <img> uses that copy.
  const imagePreload = page.locator('head link[rel="preload"][as="image"]');
  await expect(imagePreload).toHaveCount(1);
  await expect(imagePreload).toHaveAttribute('fetchpriority', 'high');
  expect(await imagePreload.getAttribute('imagesrcset')).toBe(await lead.getAttribute('srcset'));
  expect(await imagePreload.getAttribute('imagesizes')).toBe(await lead.getAttribute('sizes'));
  const leadSource = await lead.evaluate(
    (image) => (image as unknown as { currentSrc: string }).currentSrc,
  );
  const leadFetches = (await fetchedResources(page))
    .filter((entry) => entry.name === leadSource)
    .map((entry) => entry.initiator);
  expect(leadFetches).toEqual(['link']);

  const mine = postCard(page, newest).locator('img.post-images__image');
  await expect(mine).toHaveAttribute('width', '1600');
  await expect(mine).toHaveAttribute('height', '900');
  await expect(mine).toHaveAttribute(
    'srcset',
    /-small\.webp 600w, \S+-medium\.webp 800w, \S+-feed\.webp 1200w$/,
  );
  await expect(mine).toHaveAttribute('sizes', '(max-width: 672px) calc(100vw - 58px), 590px');

  const pair = postCard(page, older).locator('img.post-images__image');
  await expect(pair).toHaveCount(2);
  for (const image of await pair.all()) {
    await expect(image).toHaveAttribute('loading', 'lazy');
    await expect(image).toHaveAttribute('decoding', 'async');
    await expect(image).not.toHaveAttribute('fetchpriority', /.*/);
    await expect(image).toHaveAttribute('width', /^\d+$/);
    await expect(image).toHaveAttribute('height', /^\d+$/);
    await expect(image).toHaveAttribute('srcset', /600w/);
    await expect(image).toHaveAttribute('sizes', '(max-width: 672px) calc(50vw - 31px), 293px');
  }
  // A 900 px picture has 600, 800 and 900 px renditions, and the phone takes the one it needs.
  await expect(pair.nth(1)).toHaveAttribute('srcset', /600w, \S+ 800w, \S+ 900w$/);
  await pair.nth(1).scrollIntoViewIfNeeded();
  await expect
    .poll(() => pair.nth(1).evaluate((image: unknown) => (image as ChosenImage).currentSrc))
    .toMatch(/-(small|medium|feed)\.webp$/);
});

test('the post page fetches its first image at once, and the profile its cover', async ({
  page,
  createUser,
  createPost,
  apiAs,
}) => {
  const author = await createUser();
  const post = await createPost(author, {
    images: [
      { file: await jpegFile('a.jpg', 1300, 800), alt: 'First' },
      { file: await jpegFile('b.jpg', 800, 1300), alt: 'Second' },
    ],
  });
  const api = await apiAs(author);
  const response = await api.patch(`/api/users/${author.uid}/profile`, {
    multipart: {
      cover: await jpegFile('cover.jpg', 1600, 600),
      avatar: await jpegFile('avatar.jpg', 500, 500),
    },
  });
  expect(response.status(), await response.text()).toBe(200);

  await page.setViewportSize(phone);
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const imageRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/media/posts/')) imageRequests.push(request.url());
  });
  await page.goto(postPath(post.id));
  const images = page.locator('article.post img.post-images__image');
  await expect(images).toHaveCount(2);
  // The server names the first image in the head, with the <img>'s own srcset and sizes, so the browser
  // fetches it before the app runs and the <img> takes that very copy.
  const preload = page.locator('head link[rel="preload"][as="image"]');
  await expect(preload).toHaveCount(1);
  await expect(preload).toHaveAttribute('fetchpriority', 'high');
  expect(await preload.getAttribute('imagesrcset')).toBe(
    await images.first().getAttribute('srcset'),
  );
  expect(await preload.getAttribute('imagesizes')).toBe(await images.first().getAttribute('sizes'));
  const chosen = await images
    .first()
    .evaluate((image: unknown) => (image as ChosenImage).currentSrc);
  expect(chosen).toMatch(/-small\.webp$/);
  // Chromium warns of a preload left unused a few seconds after the load event: wait that long.
  await page.waitForLoadState('load');
  await page.waitForTimeout(3_500);
  expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
  expect(imageRequests.filter((url) => url === chosen)).toHaveLength(1);
  await expect(images.first()).toHaveAttribute('fetchpriority', 'high');
  await expect(images.first()).toHaveAttribute('loading', 'eager');
  await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');

  await page.goto(profilePath(author.user));
  const cover = page.locator('.profile__cover img');
  await expect(cover).toHaveAttribute('fetchpriority', 'high');
  await expect(cover).not.toHaveAttribute('loading', 'lazy');
  await expect(cover).toHaveAttribute('srcset', /-coverSmall\.webp 750w, \S+-cover\.webp 1500w$/);
  await expect(cover).toHaveAttribute('width', '1500');
  await expect(cover).toHaveAttribute('height', '500');
  // A 360 px phone at density 1 needs the 750 px cover, not the 1500 px one.
  await expect
    .poll(() => cover.evaluate((image: unknown) => (image as ChosenImage).currentSrc))
    .toMatch(/-coverSmall\.webp$/);
  const avatar = page.locator('img.profile__avatar');
  await expect(avatar).toHaveAttribute('srcset', /-thumb\.webp 96w, \S+-avatar\.webp 400w$/);
  await expect(avatar).toHaveAttribute('sizes', '144px');
});

/** Visible controls smaller than 24×24 CSS px, except links inside running text (WCAG 2.5.8's inline case). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as TargetGlobals;
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="menuitem"], [role="link"]';
    const small: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      // A box or button in a <label> is hit anywhere on its label.
      const hit = element.tagName === 'INPUT' ? (element.closest('label') ?? element) : element;
      const box = hit.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || element.closest('[inert], [aria-hidden="true"]'))
        continue;
      // Skip links and the like: one pixel until focused.
      if (box.width <= 1 || box.height <= 1) continue;
      // A link in a sentence: its line sets its height, and WCAG 2.5.8 exempts it.
      const sentence = element.parentElement?.textContent?.trim() ?? '';
      const own = element.textContent?.trim() ?? '';
      if (style.display === 'inline' && sentence.length > own.length) continue;
      if (box.width >= 24 && box.height >= 24) continue;
      const name =
        element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
      small.push(
        `${element.tagName.toLowerCase()}.${element.className} "${name}" ${String(Math.round(box.width))}×${String(Math.round(box.height))}`,
      );
    }
    return small;
  });
}

test('touch targets are at least 24 px on the main pages of a phone', async ({
  page,
  createUser,
  createPost,
  createComment,
  follow,
  login,
}) => {
  const reader = await createUser();
  const friend = await createUser();
  const text = uniquePostText('Targets');
  const post = await createPost(reader, {
    body: `${text} #targets @${reader.username} https://example.com`,
    images: [{ file: await jpegFile('t.jpg', 800, 600), alt: 'T' }],
  });
  // A comment with a reply, and a notification of each.
  const comment = await createComment(friend, post.id, `Nice @${reader.username}`);
  await createComment(reader, post.id, 'Thanks', comment.id);
  await follow(friend, reader);
  await login(page, reader);
  await page.setViewportSize(phone);

  const pages: { path: string; ready: () => Promise<unknown> }[] = [
    { path: '/feed', ready: () => findInFeed(page, text) },
    {
      path: postPath(post.id),
      ready: () => expect(page.getByText('Thanks', { exact: true })).toBeVisible(),
    },
    {
      path: profilePath(reader.user),
      ready: () => expect(page.locator('#profile-name')).toBeVisible(),
    },
    {
      path: '/settings/account',
      ready: () => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
    },
    {
      path: '/settings/notifications',
      ready: () => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
    },
    {
      path: '/notifications',
      ready: () => expect(page.getByText(/followed you/).first()).toBeVisible(),
    },
  ];
  const small: string[] = [];
  for (const { path, ready } of pages) {
    await page.goto(path);
    await ready();
    small.push(...(await smallTargets(page)).map((target) => `${path}: ${target}`));
  }
  expect(small).toEqual([]);
});
