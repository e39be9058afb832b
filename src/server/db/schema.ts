import type { ColumnType, Generated } from 'kysely';

/** SQLite keeps timestamps as ISO-8601 text, PostgreSQL as timestamptz (Better Auth's convention, ADR 0001). */
export type Timestamp = ColumnType<Date | string, Date | string, Date | string>;
/** SQLite keeps booleans as 0/1. */
export type Bool = ColumnType<boolean | number, boolean | number, boolean | number>;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  displayUsername: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  cover: string | null;
  bio: string | null;
  active: Bool | null;
  role: string | null;
  website: string | null;
  avatarMediaId: string | null;
  coverMediaId: string | null;
  usernameChangedAt: Timestamp | null;
  banned: Bool | null;
  banReason: string | null;
  banExpires: Timestamp | null;
  /** Suspended while set and `suspendedUntil` is null (indefinitely) or ahead (ADR 0021). */
  suspendedAt: Timestamp | null;
  suspendedUntil: Timestamp | null;
  suspensionReason: string | null;
  /** The audit entry of the suspension, which an appeal answers. */
  suspensionActionId: IdRef | null;
  /** Approval mode: signed up and waiting for a moderator. */
  awaitingApproval: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  /** The answer to the instance's sign-up question. */
  signupAnswer: string | null;
  /** The last request made with a session, to the nearest few minutes (the dashboard's active users). */
  lastActiveAt: Timestamp | null;
  postCount: Generated<number>;
  followerCount: Generated<number>;
  followingCount: Generated<number>;
}

export interface SessionsTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
}

export interface AccountsTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type MediaPurpose = 'avatar' | 'cover' | 'post';

export interface MediaTable {
  id: string;
  ownerId: string | null;
  purpose: MediaPurpose;
  alt: string | null;
  width: number;
  height: number;
  /** JSON `Record<rendition, { key, width, height }>`. */
  renditions: string;
  createdAt: Timestamp;
}

export interface ReleasedUsernamesTable {
  username: string;
  userId: string | null;
  releasedAt: Timestamp;
  reservedUntil: Timestamp;
}

/**
 * Integer ids, generated on insert. They read back as a number from SQLite and as a decimal string from
 * PostgreSQL's bigint, so presenters turn them into strings (issue: posts).
 */
export type Id = Generated<number | string>;
export type IdRef = number | string;

export interface PostsTable {
  id: Id;
  authorId: string;
  body: string;
  createdAt: Timestamp;
  editedAt: Timestamp | null;
  likeCount: Generated<number>;
  commentCount: Generated<number>;
  commentsRevision: Generated<number>;
  /** Removed by moderators: hidden from everyone but its author, who sees `removalReason`. */
  removedAt: Timestamp | null;
  removalReason: string | null;
}

/** Earlier texts of an edited post. */
export interface PostVersionsTable {
  id: Id;
  postId: IdRef;
  body: string;
  /** When this text was written (the post's creation or an earlier edit). */
  createdAt: Timestamp;
}

export interface PostMediaTable {
  postId: IdRef;
  mediaId: string;
  position: number;
}

/** Lower-cased hashtags of each post, for the hashtag feed. */
export interface PostTagsTable {
  tag: string;
  postId: IdRef;
}

export interface CommentsTable {
  id: Id;
  postId: IdRef;
  /** The top-level comment this replies to; replies are one level deep. */
  parentId: IdRef | null;
  authorId: string;
  body: string;
  createdAt: Timestamp;
  editedAt: Timestamp | null;
  likeCount: Generated<number>;
  replyCount: Generated<number>;
  /** Removed by moderators: hidden from everyone but its author, who sees `removalReason`. */
  removedAt: Timestamp | null;
  removalReason: string | null;
}

export interface PostLikesTable {
  id: Id;
  postId: IdRef;
  userId: string;
  createdAt: Timestamp;
  /** The post's author while this like's notification waits for their bell to be read (ADR 0055). */
  pendingRecipientId: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CommentLikesTable {
  id: Id;
  commentId: IdRef;
  userId: string;
  createdAt: Timestamp;
}

export interface FollowsTable {
  id: Id;
  followerId: string;
  followeeId: string;
  createdAt: Timestamp;
}

/** The one database interface both dialects share. */
/** An upload whose files may exist without a media row yet (ADR 0009). */
export interface PendingUploadsTable {
  mediaId: string;
  /** JSON array of storage keys. */
  keys: string;
  createdAt: Timestamp;
}

/** One event for one recipient (ADR 0017); likes and follows are grouped by `groupKey` when read. */
export interface NotificationsTable {
  id: Id;
  recipientId: string;
  actorId: string;
  kind: string;
  postId: IdRef | null;
  commentId: IdRef | null;
  /** Likes of one post, likes of one comment, or all follows; null for kinds never grouped. */
  groupKey: string | null;
  /** Moderation kinds: the report, appeal or audit entry the notification is about. */
  subjectId: string | null;
  createdAt: Timestamp;
}

/** A notification waiting for its recipient's daily digest. */
export interface NotificationMailQueueTable {
  id: Id;
  userId: string;
  actorId: string;
  kind: string;
  postId: IdRef | null;
  commentId: IdRef | null;
  createdAt: Timestamp;
}

/** Per account: the read marker, the settings (JSON, null for the defaults) and mail bookkeeping. */
export interface NotificationStatesTable {
  userId: string;
  lastReadId: ColumnType<number | string, number | string | undefined, number | string>;
  settings: string | null;
  digestSentAt: Timestamp | null;
  mailWindowStart: Timestamp | null;
  mailWindowCount: Generated<number>;
}

/** A mail unsubscribe link: only the token's hash is kept. */
export interface UnsubscribeTokensTable {
  tokenHash: string;
  userId: string;
  /** The kind whose mail it stops; null for the daily digest. */
  kind: string | null;
  createdAt: Timestamp;
  usedAt: Timestamp | null;
}

export interface BlocksTable {
  blockerId: string;
  blockedId: string;
  createdAt: Timestamp;
}

export interface MutesTable {
  muterId: string;
  mutedId: string;
  createdAt: Timestamp;
  /** When the mute ends by itself; null while it is kept. */
  expiresAt: Timestamp | null;
}

/** The audit log (ADR 0021): every moderator and administrator action. */
export interface ModerationActionsTable {
  id: Id;
  /** null: the operator, through the command line. */
  actorId: string | null;
  actorName: string;
  action: string;
  targetUserId: string | null;
  targetName: string | null;
  subjectKind: string | null;
  subjectId: string | null;
  excerpt: string | null;
  reason: string | null;
  note: string | null;
  /** JSON. */
  details: string | null;
  public: Bool;
  createdAt: Timestamp;
}

export interface ReportsTable {
  id: Id;
  reporterId: string | null;
  targetKind: string;
  targetId: string;
  targetUserId: string | null;
  reason: string;
  ruleId: IdRef | null;
  comment: string | null;
  /** JSON: the reported content as it was. */
  snapshot: string;
  status: string;
  outcome: string | null;
  resolvedBy: string | null;
  resolvedAt: Timestamp | null;
  actionId: IdRef | null;
  createdAt: Timestamp;
}

export interface AppealsTable {
  id: Id;
  userId: string;
  actionId: IdRef;
  text: string;
  status: string;
  decidedBy: string | null;
  decidedAt: Timestamp | null;
  decisionReason: string | null;
  createdAt: Timestamp;
}

export interface ModerationNotesTable {
  id: Id;
  userId: string;
  authorId: string | null;
  authorName: string;
  body: string;
  createdAt: Timestamp;
}

export interface InstanceSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updatedAt: Timestamp;
}

export interface InstanceRulesTable {
  id: Id;
  position: number;
  text: string;
  description: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Page-performance reports as daily histograms. */
export interface WebVitalsTable {
  /** YYYY-MM-DD, UTC. */
  day: string;
  page: string;
  metric: string;
  bucket: number;
  count: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  media: MediaTable;
  released_usernames: ReleasedUsernamesTable;
  posts: PostsTable;
  post_versions: PostVersionsTable;
  post_media: PostMediaTable;
  post_tags: PostTagsTable;
  comments: CommentsTable;
  post_likes: PostLikesTable;
  comment_likes: CommentLikesTable;
  follows: FollowsTable;
  pending_uploads: PendingUploadsTable;
  notifications: NotificationsTable;
  notification_mail_queue: NotificationMailQueueTable;
  notification_states: NotificationStatesTable;
  unsubscribe_tokens: UnsubscribeTokensTable;
  blocks: BlocksTable;
  mutes: MutesTable;
  moderation_actions: ModerationActionsTable;
  reports: ReportsTable;
  appeals: AppealsTable;
  moderation_notes: ModerationNotesTable;
  instance_settings: InstanceSettingsTable;
  instance_rules: InstanceRulesTable;
  web_vitals: WebVitalsTable;
}
