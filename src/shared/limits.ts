/** Instance limits shared by the server (enforcement) and the web app (forms, counters). DESIGN.md "Default limits". */
export const limits = {
  username: { min: 3, max: 30 },
  name: { max: 50 },
  bio: { max: 500 },
  email: { max: 254 },
  password: { min: 8, max: 128 },
  website: { max: 200 },
  altText: { max: 1_500 },
  /** Image uploads (avatars, covers, post images): DESIGN.md "Default limits". */
  upload: { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 },
  /** Days between username changes, and how long an old name redirects and stays reserved. */
  usernameChange: { cooldownDays: 30, reserveDays: 90 },
  /** Posts (issue: posts): text in characters as people count them, up to 4 images each. */
  post: { max: 5_000, maxImages: 4 },
  comment: { max: 2_000 },
  /** Page sizes of lists: feeds, comments, replies, likers, followers. */
  page: { default: 20, max: 50 },
  /** Replies shown under each comment before "Show more replies". */
  repliesPreview: 3,
  /** New posts fetched for the "Show N new posts" button; more than this reloads the feed from the top. */
  newPostsMax: 50,
  /** Request bodies on JSON endpoints; uploads have their own limits. */
  jsonBodyBytes: 64 * 1024,
} as const;

/** Rate limits (spec silent; DESIGN.md "Default limits"). Windows are in milliseconds. */
export const rateLimits = {
  signIn: { max: 10, windowMs: 5 * 60_000 },
  signUp: { max: 5, windowMs: 30 * 60_000 },
  passwordReset: { max: 5, windowMs: 30 * 60_000 },
  apiPerIp: { max: 300, windowMs: 5 * 60_000 },
  apiPerUser: { max: 1_200, windowMs: 5 * 60_000 },
  profileEdit: { max: 30, windowMs: 10 * 60_000 },
  accountChange: { max: 10, windowMs: 15 * 60_000 },
  post: { max: 30, windowMs: 10 * 60_000 },
  comment: { max: 60, windowMs: 10 * 60_000 },
  /** Likes and follows: generous, but a script cannot flood followers' screens. */
  reaction: { max: 600, windowMs: 10 * 60_000 },
} as const;

/** Password-reset links work once and expire after one hour (issue: accounts). */
export const resetTokenTtlSeconds = 60 * 60;

/** spec §9: chunk load timeout. */
export const chunkLoadTimeoutMs = 120_000;
