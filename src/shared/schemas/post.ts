import { z } from 'zod';
import { idPattern } from '../ids.js';
import { limits } from '../limits.js';
import { commentBodyRule, postBodyRule } from '../text-rules.js';
import { altTextSchema } from './profile.js';
import { ruledTextSchema } from './text.js';

/**
 * Posts, comments, likes and the feed (issue: posts). Ids are decimal strings: integers in the database, so
 * every list is a keyset range scan over an index in insertion (= time) order.
 */
export const idSchema = z.string({ error: 'Missing id.' }).regex(idPattern, 'Not a valid id.');

export const postIdParamsSchema = z.object({ postId: idSchema });
export const commentIdParamsSchema = z.object({ commentId: idSchema });

/** Who wrote something: enough to show a name, a handle and an avatar. */
export const authorSchema = z.object({
  uid: z.string(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  displayName: z.string().nullable(),
  /** 96×96 avatar, or null for the default image. */
  avatarThumb: z.string().nullable(),
  active: z.boolean(),
});
export type Author = z.infer<typeof authorSchema>;

/** One rendition of an image a page may choose by width (`srcset`). */
export const imageSourceSchema = z.object({ url: z.string(), width: z.number().int() });
export type ImageSource = z.infer<typeof imageSourceSchema>;

export const postImageSchema = z.object({
  id: z.string(),
  /** Up to 1200 px wide, for the feed. */
  url: z.string(),
  /** The renditions of `url`'s picture that exist (600, 800 and 1200 px), narrowest first, for `srcset`. */
  sources: z.array(imageSourceSchema),
  /** Up to 2560 px on the long side, for the full-size viewer. */
  fullUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  alt: z.string().nullable(),
});
export type PostImage = z.infer<typeof postImageSchema>;

/**
 * Removed by moderators (ADR 0021): why and when. Only the author ever receives a removed post or comment,
 * so only they see this; it is null everywhere else.
 */
export const removalSchema = z.object({ reason: z.string(), at: z.string() });
export type Removal = z.infer<typeof removalSchema>;

/** The public post document: the same for every viewer, so it can go out over the socket (topic posts/{id}). */
export const postSchema = z.object({
  id: idSchema,
  author: authorSchema,
  body: z.string(),
  images: z.array(postImageSchema),
  createdAt: z.string(),
  /** When the text was last changed, or null if never: the post then shows "edited". */
  editedAt: z.string().nullable(),
  likeCount: z.number().int(),
  commentCount: z.number().int(),
  /** Bumped whenever a comment of this post is written, edited, liked or deleted: lists refetch on change. */
  commentsRevision: z.number().int(),
  /** Set only on the author's own view of a post the moderators removed. */
  removal: removalSchema.nullable(),
});
export type Post = z.infer<typeof postSchema>;

/** A post as one viewer sees it: whether they like it. */
export const postViewSchema = postSchema.extend({ liked: z.boolean() });
export type PostView = z.infer<typeof postViewSchema>;

export const postVersionSchema = z.object({ body: z.string(), createdAt: z.string() });
export const postVersionsSchema = z.object({
  /** Earlier texts, newest first; the current text is the post's own. */
  items: z.array(postVersionSchema),
});
export type PostVersion = z.infer<typeof postVersionSchema>;

export const commentSchema = z.object({
  id: idSchema,
  postId: idSchema,
  /** The top-level comment this replies to, or null for a top-level comment (replies are one level deep). */
  parentId: idSchema.nullable(),
  author: authorSchema,
  body: z.string(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  likeCount: z.number().int(),
  replyCount: z.number().int(),
  liked: z.boolean(),
  /** Set only on the author's own view of a comment the moderators removed. */
  removal: removalSchema.nullable(),
});
export type Comment = z.infer<typeof commentSchema>;

/** A top-level comment with its first replies (oldest first); the rest load through /replies. */
export const threadSchema = commentSchema.extend({ replies: z.array(commentSchema) });
export type Thread = z.infer<typeof threadSchema>;

/** One page of a keyset-paginated list; `nextCursor` is null on the last page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const postPageSchema = pageSchema(postViewSchema);
export const threadPageSchema = pageSchema(threadSchema);
export const commentPageSchema = pageSchema(commentSchema);
export const authorPageSchema = pageSchema(authorSchema);

/** `?limit=`: how many items a page holds, within `limits.page`. */
export const pageLimitSchema = z.coerce
  .number({ error: 'Use a number.' })
  .int('Use a whole number.')
  .min(1, 'Ask for at least one item.')
  .max(limits.page.max, `Ask for at most ${limits.page.max} items.`)
  .default(limits.page.default);

/** `?cursor=&limit=`: the cursor is the id of the last item of the previous page. */
export const pageQuerySchema = z.object({
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const feedTabs = ['following', 'everyone'] as const;
export const feedTabSchema = z.enum(feedTabs, { error: 'Choose the following or everyone feed.' });
export type FeedTab = z.infer<typeof feedTabSchema>;

/** A hashtag's characters: letters, digits and underscores, at most 100. */
const hashtagPattern = /^[\p{L}\p{N}_]{1,100}$/u;

/** A hashtag as a request names it: trimmed, and lowercased as tags are stored. */
export const hashtagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(hashtagPattern, 'Not a valid hashtag.');

/** A hashtag in an answer: as stored, already trimmed and lowercased. */
export const storedHashtagSchema = z.string().regex(hashtagPattern, 'Not a valid hashtag.');

/**
 * GET /api/feed. `cursor` pages towards older posts; `after` instead asks for posts newer than an id
 * (the "Show N new posts" button), newest first, at most `limits.newPostsMax`.
 */
export const feedQuerySchema = z
  .object({
    tab: feedTabSchema.default('everyone'),
    tag: hashtagSchema.optional(),
    cursor: idSchema.optional(),
    after: idSchema.optional(),
    limit: pageLimitSchema,
  })
  .refine((query) => !(query.cursor && query.after), {
    message: 'Use either cursor or after, not both.',
    path: ['after'],
  });
export type FeedQuery = z.infer<typeof feedQuerySchema>;

/** A post's text. It may be empty only when the post has images: postError checks it with them. */
export const postBodySchema = ruledTextSchema(postBodyRule, 'Write something first.');

export const commentBodySchema = ruledTextSchema(commentBodyRule, commentBodyRule.empty);

const optionalAlt = z
  .union([altTextSchema, z.null()])
  .transform((value) => (value === null || value === '' ? null : value))
  .optional();

/** POST /api/posts: JSON, or multipart/form-data when images come along. */
export const createPostSchema = z.object({
  body: postBodySchema,
  alt0: optionalAlt,
  alt1: optionalAlt,
  alt2: optionalAlt,
  alt3: optionalAlt,
});
export type CreatePostInput = z.input<typeof createPostSchema>;
export type CreatePost = z.output<typeof createPostSchema>;
export { postAltFields, postImageFields, type PostImageField } from '../post-fields.js';

/** PATCH /api/posts/:postId: a new text and, optionally, new alt texts by image position. */
export const updatePostSchema = z.object({
  body: postBodySchema,
  alts: z
    .array(z.union([altTextSchema, z.null()]))
    .max(limits.post.maxImages)
    .optional(),
});
export type UpdatePostInput = z.input<typeof updatePostSchema>;
export type UpdatePost = z.output<typeof updatePostSchema>;

/** POST /api/posts/:postId/comments. `parentId` replies to a comment; a reply to a reply joins its thread. */
export const createCommentSchema = z.object({
  body: commentBodySchema,
  parentId: idSchema.optional(),
});
export type CreateCommentInput = z.input<typeof createCommentSchema>;

export const updateCommentSchema = z.object({ body: commentBodySchema });
export type UpdateCommentInput = z.input<typeof updateCommentSchema>;

/** PUT/DELETE …/like: the new state. Liking twice or unliking twice is not an error. */
export const likeStateSchema = z.object({ liked: z.boolean(), likeCount: z.number().int() });
export type LikeState = z.infer<typeof likeStateSchema>;

/**
 * The `feed` topic's document: the newest post id, plus the post that just changed (null on the snapshot,
 * and for a deletion, where `postId` names the deleted post).
 */
export const feedSignalSchema = z.object({
  head: idSchema.nullable(),
  change: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('created'), post: postSchema }),
      z.object({ kind: z.literal('updated'), post: postSchema }),
      z.object({ kind: z.literal('deleted'), postId: idSchema }),
    ])
    .nullable(),
});
export type FeedSignal = z.infer<typeof feedSignalSchema>;
