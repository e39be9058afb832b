/**
 * The multipart fields of a new post, free of zod: the web app's composer names them without loading the
 * schemas (issue 13: zod is no part of the feed's download). `schemas/post.ts` re-exports them.
 */

/** File fields of a new post, in display order; alt texts come as `alt0`…`alt3`. */
export const postImageFields = ['image0', 'image1', 'image2', 'image3'] as const;
export type PostImageField = (typeof postImageFields)[number];

/** The alt-text field of each image field, by position (fields of `createPostSchema`). */
export const postAltFields = ['alt0', 'alt1', 'alt2', 'alt3'] as const;
