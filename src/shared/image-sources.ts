import type { ImageSource, PostImage } from './schemas/post.js';

/**
 * `srcset` and `sizes` for the app's images, built only from the renditions the API says exist: an image
 * stored before a smaller rendition was introduced lists just what it has, so no request ever 404s. Shared
 * because the server names the same choice in a page's `<link rel="preload">` (ADR 0026): a preload whose
 * `srcset` or `sizes` differed from the `<img>`'s would fetch a second, unused copy.
 */

/** The rem the layout widths below are written in (the stylesheet's root size). */
const remPx = 16;
/** `.page--narrow`: the feed and the post page. */
const narrowPagePx = 40 * remPx;
/** `.page--wide`: the profile, whose cover spans it. */
const widePagePx = 56 * remPx;

/** A `srcset` of width descriptors, or undefined when there is nothing to choose between. */
export function srcSetOf(sources: readonly ImageSource[]): string | undefined {
  const distinct = [...new Map(sources.map((source) => [source.width, source])).values()];
  if (distinct.length < 2) return undefined;
  return distinct
    .sort((a, b) => a.width - b.width)
    .map((source) => `${source.url} ${String(source.width)}w`)
    .join(', ');
}

/**
 * What a phone's screen loses around a post's image, each side: `.site-main`'s padding (0.75rem up to
 * 420 px), the post's padding (1rem up to 480 px) and its 1 px border. Wider phones and tablets lose a
 * little more, so using this figure up to the page's full width overstates the slot by at most 24 px and
 * never asks for a rendition too small.
 */
const phoneGutterPx = 2 * (0.75 * remPx + remPx + 1);
/** `.site-main`'s padding (1rem) each side of the narrow page: wider screens show the page in full. */
const fullPageViewportPx = narrowPagePx + 2 * remPx;
/** The post's inner width on the full page: less its padding (1.5rem) and border each side. */
const postInnerPx = narrowPagePx - 2 * (1.5 * remPx + 1);
/** The gap between the grid's two columns (0.25rem). */
const gridGapPx = 0.25 * remPx;

/**
 * How wide a post's image shows (measured at 360, 412 and 1350 px: 302, 354 and 590 px alone, half less
 * the gap in the two-column grid that two to four images share), so a phone at 412 px and DPR 1.75 is
 * not told the image spans the whole screen and fetch a rendition wider than it shows.
 */
export function postImageSizes(imageCount: number): string {
  const phone = `(max-width: ${String(fullPageViewportPx)}px)`;
  if (imageCount > 1) {
    const column = (postInnerPx - gridGapPx) / 2;
    return `${phone} calc(50vw - ${String((phoneGutterPx + gridGapPx) / 2)}px), ${String(column)}px`;
  }
  return `${phone} calc(100vw - ${String(phoneGutterPx)}px), ${String(postInnerPx)}px`;
}

/** How many posts from the top of a list may hold the first screen's largest image. */
const leadImageWindow = 3;

/**
 * The post of a list whose first image is likely the largest paint: the first among the top few that has
 * images. The list loads it first, not lazily, and the feed page's head preloads it (ADR 0026): one rule
 * for both, so the preload names the image the list shows first.
 */
export function leadImagePost<P extends { images: readonly PostImage[] }>(
  posts: readonly P[],
): P | undefined {
  return posts.slice(0, leadImageWindow).find((post) => post.images.length > 0);
}

/** The profile cover: 750×250 and 1500×500 when both exist; it spans the wide page. */
export function coverSources(cover: string, coverSmall: string | null): ImageSource[] {
  return coverSmall
    ? [
        { url: coverSmall, width: 750 },
        { url: cover, width: 1500 },
      ]
    : [{ url: cover, width: 1500 }];
}

export const coverSizes = `(max-width: ${String(widePagePx)}px) 100vw, ${String(widePagePx)}px`;

/** An avatar's 96×96 and 400×400 renditions, when the user has both (authors carry only the small one). */
export function avatarSources(avatar: string | null, thumb: string | null): ImageSource[] {
  const sources: ImageSource[] = [];
  if (thumb) sources.push({ url: thumb, width: 96 });
  if (avatar && avatar !== thumb) sources.push({ url: avatar, width: 400 });
  return sources;
}
