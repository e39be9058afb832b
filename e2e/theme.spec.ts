import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import type { PageGlobals } from './support/page-globals.js';

// Light and dark colour schemes (DESIGN.md stack: plain CSS with custom properties, light + dark).

/** The colour the page is painted with: the first opaque background from body up to html, else white. */
async function pageBackground(page: Page): Promise<[number, number, number]> {
  const color = await page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    for (const element of [document.body, document.documentElement]) {
      const value = getComputedStyle(element).backgroundColor;
      if (value && value !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(value)) return value;
    }
    return 'rgb(255, 255, 255)';
  });
  const parts = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(color);
  if (!parts) throw new Error(`Unexpected colour ${color}`);
  return [Number(parts[1]), Number(parts[2]), Number(parts[3])];
}

/** WCAG relative luminance, 0 (black) … 1 (white). */
function luminance([r, g, b]: [number, number, number]): number {
  const channel = (value: number) => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

test('the dark scheme paints a dark background and the light scheme a light one', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/feed');
  await expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible();
  const light = await pageBackground(page);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await pageBackground(page)).join(',')).not.toBe(light.join(','));
  const dark = await pageBackground(page);

  expect(luminance(light)).toBeGreaterThan(0.6);
  expect(luminance(dark)).toBeLessThan(0.2);
  // Text follows the scheme too.
  const textColor = await page
    .getByRole('heading', { name: 'Feed', exact: true })
    .evaluate(
      (element: unknown) =>
        (globalThis as unknown as PageGlobals).getComputedStyle(element as object).color,
    );
  const text = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(textColor);
  expect(luminance([Number(text?.[1]), Number(text?.[2]), Number(text?.[3])])).toBeGreaterThan(0.4);
});

test('the scheme is honoured from the first paint, not only after a switch', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(luminance(await pageBackground(page))).toBeLessThan(0.2);
});

test.describe('360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  const paths = [
    '/feed',
    '/login',
    '/register',
    '/reset-password',
    '/tos',
    '/privacy',
    '/nope/nope',
  ];
  for (const path of paths) {
    test(`${path} has no horizontal scroll`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expectNoHorizontalScroll(page);
    });
  }

  test('a signed-in profile with a long name has no horizontal scroll', async ({
    page,
    createUser,
    login,
  }) => {
    const user = await createUser({
      firstName: 'Maximilianus',
      lastName: 'Bartholomew-Featherstonehaugh',
    });
    await login(page, user);
    for (const path of [`/${user.username}`, `/${user.username}/edit-profile`, '/feed']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expectNoHorizontalScroll(page);
    }
    await page.getByRole('button', { name: user.displayName }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoHorizontalScroll(page);
    const box = await page.getByRole('menu').boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 360).toBe(true);
  });
});

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    return {
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    };
  });
  expect(widths.scroll, `page ${page.url()} scrolls sideways`).toBeLessThanOrEqual(widths.client);
}
