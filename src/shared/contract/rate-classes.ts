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
  'search',
  'notification-change',
  'unsubscribe',
] as const;
export type RateClass = (typeof rateClasses)[number];
