import type { ImageSource } from '@shared/schemas/post.js';

/**
 * `srcset` and `sizes` for the app's images, built only from the renditions the API says exist: an image
 * stored before a smaller rendition was introduced lists just what it has, so no request ever 404s.
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
 * How wide a post's image shows: the narrow page's column, or half of it in the two-column grid that two
 * to four images share. Phones show the column edge to edge.
 */
export function postImageSizes(imageCount: number): string {
  const columns = imageCount > 1 ? 2 : 1;
  const phone = columns === 1 ? '100vw' : '50vw';
  return `(max-width: ${String(narrowPagePx)}px) ${phone}, ${String(narrowPagePx / columns)}px`;
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
