import { z } from 'zod';

/** A stored rendition, as kept in `media.renditions`. */
export const storedRenditionsSchema = z.record(
  z.string(),
  z.object({ key: z.string(), width: z.number(), height: z.number() }),
);
export type StoredRenditions = z.infer<typeof storedRenditionsSchema>;

/** Parses `media.renditions`; a corrupt value reads as no renditions rather than failing a whole page. */
export function parseRenditions(json: string | null): StoredRenditions {
  if (!json) return {};
  try {
    const parsed = storedRenditionsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Renditions of profile images (issue: profiles): avatar 400×400 and 96×96 centre crops, cover 1500×500,
 * and a 750×250 cover that a phone's screen fills without fetching four times the pixels it shows.
 */
export const profileRenditions = {
  avatar: [
    { name: 'avatar', width: 400, height: 400, fit: 'cover' as const },
    { name: 'thumb', width: 96, height: 96, fit: 'cover' as const },
  ],
  cover: [
    { name: 'cover', width: 1500, height: 500, fit: 'cover' as const },
    { name: 'coverSmall', width: 750, height: 250, fit: 'cover' as const },
  ],
};

/**
 * Renditions of post images (issue: posts): 600 px for grid cells, 800 px for a phone's single image, 1200 px
 * for wider screens and sharper phones, and one for the full-size viewer. A lone image on a phone shows 302
 * to 354 px wide, so at a pixel ratio of 1.75 to 2 it needs 604 to 708 pixels: just past 600, where the
 * browser had to take the 1200 px file, over twice the bytes. 800 px covers ratios up to about 2.25.
 */
export const postRenditions = [
  { name: 'feed', width: 1200, height: 1200, fit: 'inside' as const },
  { name: 'small', width: 600, height: 600, fit: 'inside' as const },
  { name: 'medium', width: 800, height: 800, fit: 'inside' as const },
  { name: 'full', width: 2560, height: 2560, fit: 'inside' as const },
];

/** The renditions a page may pick from for a post image (its srcset): the viewer's `full` is not one. */
const postPageRenditions = ['small', 'medium', 'feed'] as const;

/**
 * A post image's renditions for `srcset`, narrowest first, one per distinct width. Images stored before a
 * rendition existed list only what they have, so the page never asks for a missing file.
 */
export function postImageSources(
  renditions: StoredRenditions,
  mediaUrl: (key: string) => string,
): { url: string; width: number }[] {
  const sources: { url: string; width: number }[] = [];
  for (const name of postPageRenditions) {
    const rendition = renditions[name];
    if (!rendition || sources.some((source) => source.width === rendition.width)) continue;
    sources.push({ url: mediaUrl(rendition.key), width: rendition.width });
  }
  return sources.sort((a, b) => a.width - b.width);
}
