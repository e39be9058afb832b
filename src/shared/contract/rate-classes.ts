/**
 * Rate-limit classes an endpoint may name (its `rateLimit`). The rules are in limits.ts; what each class
 * counts by (address, account, the address an email goes to) is the server's, in http/rate-classes.ts.
 */
export const rateClasses = [
  'sign-up',
  'sign-in',
  'password-reset',
  'reset-token',
  'email-confirm',
  'account-change',
  'profile-edit',
  'post',
  'post-edit',
  'comment',
  'comment-edit',
  /** Post likes. */
  'reaction',
  'comment-like',
  'follow',
  /** Blocks and mutes, and lifting them. */
  'block',
  /** Reports and appeals: per account. */
  'report',
  /** Moderators' actions: generous, a brake on a runaway script or a stolen session. */
  'moderation',
  'search',
  'notification-change',
  'unsubscribe',
  /** Page-performance reports from the web app. */
  'web-vitals',
] as const;
export type RateClass = (typeof rateClasses)[number];
