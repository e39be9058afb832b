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

/** Renditions of profile images (issue: profiles): avatar 400×400 and 96×96 centre crops, cover 1500×500. */
export const profileRenditions = {
  avatar: [
    { name: 'avatar', width: 400, height: 400, fit: 'cover' as const },
    { name: 'thumb', width: 96, height: 96, fit: 'cover' as const },
  ],
  cover: [{ name: 'cover', width: 1500, height: 500, fit: 'cover' as const }],
};

/** Renditions of post images (issue: posts): one for the feed, one for the full-size viewer. */
export const postRenditions = [
  { name: 'feed', width: 1200, height: 1200, fit: 'inside' as const },
  { name: 'full', width: 2560, height: 2560, fit: 'inside' as const },
];
