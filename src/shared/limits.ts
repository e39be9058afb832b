/** Instance limits shared by the server (enforcement) and the web app (forms, counters). DESIGN.md "Default limits". */
export const limits = {
  username: { min: 3, max: 30 },
  name: { max: 50 },
  /** The answer to the sign-up question in approval mode. */
  signupAnswer: { max: 1_000 },
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
  /** Search (issue: notifications and search §3): the text box, people as you type, how deep results go. */
  search: { maxQuery: 200, peopleDefault: 8, peopleMax: 20, maxResults: 500, trendingTags: 10 },
  /**
   * Notifications: people named in a group, the bell's count (shown as 99+ past 99), and how long and how
   * many are kept per account (older ones are pruned).
   */
  notifications: { actorsShown: 3, unreadCountMax: 100, keepDays: 180, keepPerAccount: 2_000 },
  /** Block and mute: how many hidden authors the web app is told about (the server filters them all). */
  relationships: { hiddenAuthorsMax: 5_000 },
  /** Request bodies on JSON endpoints; uploads have their own limits. */
  jsonBodyBytes: 64 * 1024,
  /** Nesting and values in one JSON body: no form nests past 2 or holds more than a few dozen values. */
  jsonDepth: 32,
  jsonValues: 2_000,
} as const;

/** Rate limits (spec silent; DESIGN.md "Default limits"). Windows are in milliseconds. */
export const rateLimits = {
  /** Sign-in attempts from one address, whichever accounts they name. */
  signIn: { max: 10, windowMs: 5 * 60_000 },
  /**
   * Sign-in attempts on one account from one address. Others guessing from elsewhere never spend the
   * owner's allowance, so they cannot lock the owner out.
   */
  signInPerAccountAddress: { max: 5, windowMs: 5 * 60_000 },
  /** Sign-in attempts on one account from anywhere: a brake on guessing spread over many addresses. */
  signInPerAccount: { max: 100, windowMs: 60 * 60_000 },
  /**
   * Sign-up attempts from one address, refused ones included (the count is SIGNUP_ATTEMPTS_PER_IP), and
   * accounts created from one address, counted only when one is (SIGNUP_ACCOUNTS_PER_IP): a household's
   * typos never lock it out, and a script still cannot open accounts by the dozen.
   */
  signUp: { max: 30, windowMs: 30 * 60_000 },
  signUpAccounts: { max: 3, windowMs: 24 * 60 * 60_000 },
  /** Reset mails to one address. */
  passwordReset: { max: 5, windowMs: 30 * 60_000 },
  /** Reset mails asked for from one client address, whatever addresses they go to. */
  passwordResetPerIp: { max: 10, windowMs: 60 * 60_000 },
  /** Reset mails the whole instance sends, so it cannot be turned into a mail cannon. */
  passwordResetPerInstance: { max: 300, windowMs: 60 * 60_000 },
  apiPerIp: { max: 300, windowMs: 5 * 60_000 },
  /** Requests of one signed-in account (a validated session), wherever it connects from. */
  apiPerUser: { max: 1_200, windowMs: 5 * 60_000 },
  profileEdit: { max: 30, windowMs: 10 * 60_000 },
  accountChange: { max: 10, windowMs: 15 * 60_000 },
  post: { max: 30, windowMs: 10 * 60_000 },
  comment: { max: 60, windowMs: 10 * 60_000 },
  /** Likes and follows: generous, but a script cannot flood followers' screens. */
  reaction: { max: 600, windowMs: 10 * 60_000 },
  /** Blocks and mutes: enough to clear out a wave of unwanted accounts, not to churn them by script. */
  block: { max: 120, windowMs: 10 * 60_000 },
  /** Reports and appeals of one account: enough for a wave of spam, not to flood the queue. */
  report: { max: 30, windowMs: 60 * 60_000 },
  /** Moderators' actions of one account. */
  moderation: { max: 300, windowMs: 10 * 60_000 },
  /** Searches as people type: a keystroke every 200 ms for a minute, twice over. */
  search: { max: 600, windowMs: 5 * 60_000 },
  /** Notification settings and marking read: every open tab marks read when the page opens. */
  notificationChange: { max: 300, windowMs: 10 * 60_000 },
  /** Unsubscribe links, per address: tokens are unguessable, this only keeps a scanner off the database. */
  unsubscribe: { max: 30, windowMs: 10 * 60_000 },
  /** Page-performance batches per address: one or two per page load, for a household behind one address. */
  webVitals: { max: 120, windowMs: 10 * 60_000 },
} as const;

/** Password-reset links work once and expire after one hour (issue: accounts). */
export const resetTokenTtlSeconds = 60 * 60;

/** spec §9: chunk load timeout. */
export const chunkLoadTimeoutMs = 120_000;

/**
 * Realtime bounds (DESIGN.md "Bounded by default"). Socket counts are per instance: each instance
 * guards its own memory and file descriptors, so N instances admit up to N times as many.
 */
export const realtimeLimits = {
  /** Bytes queued for a reader that is not reading; past this the socket is dropped, not buffered. */
  maxBufferedBytes: 1024 * 1024,
  /** Open sockets per IP: one per tab, for a household or an office behind one address. */
  socketsPerIp: 50,
  /** Open sockets per signed-in account: one per tab. */
  socketsPerAccount: 20,
  /** Upgrades per IP (shared through Redis): a reconnect after a deploy passes, a reconnect loop does not. */
  upgrades: { max: 60, windowMs: 60_000 },
  /** Messages per socket (token bucket): the burst covers resubscribing every topic after a reconnect. */
  messages: { burst: 400, perSecond: 10 },
  /** Messages refused for rate before the socket is closed: a client that ignores errors is not ours. */
  maxRefusedMessages: 20,
  /** Snapshot reads in flight per socket; the rest wait their turn, so one socket cannot hog the pool. */
  snapshotConcurrency: 4,
  /** Topics one socket may follow: a busy page holds well under this. */
  subscriptionsPerSocket: 200,
  /** Bytes in one client message; subscribe and unsubscribe are tiny. */
  messageBytes: 16 * 1024,
  /** Server ping cadence; a socket that has not answered the previous ping is cut. */
  pingIntervalMs: 30_000,
  /** How long sockets get to answer a going-away close at shutdown before they are cut. */
  closeGraceMs: 2_000,
  /**
   * Snapshot reads in flight per instance when the bus comes back after an outage and every followed
   * topic is read afresh (ADR 0013): the refresh proceeds without crowding out requests.
   */
  refreshConcurrency: 4,
  /** Sessions checked per query when the bus comes back, to find sockets whose session ended meanwhile. */
  sessionCheckBatch: 500,
} as const;

/**
 * What deleting an account tells the pages open elsewhere (issue item 5), newest first, so a very active
 * account cannot set off an unbounded burst. A feed change reaches every socket watching the feed, so only
 * the newest `feedPosts` of the account's own posts, and as many of the other posts it liked or commented
 * on, go out with one. The next ones, up to `posts` of each, fall back to the cheaper signal: their post
 * document alone, which reaches only the sockets watching that post. The newest `users` accounts it
 * followed or was followed by get their new counts. Past these, open pages correct themselves on their
 * next read. Documents are read and sent `batch` at a time, one batch after the other.
 */
export const deletionFanOut = {
  feedPosts: 50,
  posts: 1_000,
  users: 1_000,
  batch: 50,
} as const;

/**
 * Files of uploads that never committed (ADR 0009). An upload younger than `graceMs` may still be in
 * flight on some instance, so no sweep touches it; sweeps run at start and every `sweepEveryMs`, at most
 * `sweepBatch` uploads at a time.
 */
export const orphanMedia = {
  graceMs: 60 * 60_000,
  sweepEveryMs: 10 * 60_000,
  sweepBatch: 200,
} as const;

/**
 * Notification delivery and upkeep (ADR 0017). A text notifies at most `mentionsPerText` people it mentions;
 * an account gets at most `immediatePerHour` immediate mails an hour, and the rest wait for its digest; a
 * digest goes out at most once every `digestEveryMs`, lists `digestItems` and holds at most
 * `digestQueuePerAccount` waiting; every `sweepEveryMs` each instance sends the digests that are due (each
 * claimed first, so none goes twice) and deletes what is older than `limits.notifications.keepDays`, `sweepBatch` rows at a time; one insert in `pruneOneIn` trims
 * its recipient to `limits.notifications.keepPerAccount`; a deletion republishes at most `fanOut` bells.
 * Lists and mail quote the first `excerptChars` characters of a post or comment. Mail is prepared after the
 * answer, `mailInFlight` writes' worth at a time; past that, a write waits for its own.
 */
export const notificationDelivery = {
  excerptChars: 100,
  mailInFlight: 100,
  mentionsPerText: 10,
  immediatePerHour: 12,
  digestEveryMs: 24 * 60 * 60_000,
  digestItems: 20,
  digestQueuePerAccount: 200,
  sweepEveryMs: 10 * 60_000,
  sweepBatch: 500,
  pruneOneIn: 32,
  fanOut: 1_000,
} as const;

/**
 * How long a client may take to send a request (DESIGN.md "Bounded by default"): a client that sends
 * slowly or stops holds a connection and its buffers, so every stage has a deadline.
 */
export const requestTimeouts = {
  /** From a request's first byte to the end of its headers. */
  headersMs: 15_000,
  /** A JSON body, from the end of the headers to its last byte: a few kilobytes, even on a bad line. */
  jsonBodyMs: 10_000,
  /** A whole request, uploads included: four 10 MB images need about 5 minutes at 1.1 Mbit/s. */
  requestMs: 5 * 60_000,
  /** An idle kept-alive connection; longer than common proxies' 60 s, so the proxy closes it first. */
  keepAliveMs: 65_000,
  /** How often Node looks for requests past the headers or request deadline. */
  checkIntervalMs: 2_000,
} as const;

/**
 * Shutdown on SIGTERM: in-flight requests get `drainMs` to finish before every connection still open is
 * cut; past `exitMs` the process exits with an error whatever is left (an orchestrator's grace is 30 s).
 */
export const shutdownTimeouts = { drainMs: 5_000, exitMs: 10_000 } as const;
