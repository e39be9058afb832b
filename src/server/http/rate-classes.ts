import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateClass } from '../../shared/contract/rate-classes.js';
import { rateLimits } from '../../shared/limits.js';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import type { UsersRepository } from '../modules/users/users.repository.js';
import { clientAddress, perAccount, type RequestCheck } from '../plugins/rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The checks of each rate-limit class an endpoint names, in order (contract: `rateLimit`). */
    rateClasses: Readonly<Record<RateClass, readonly RequestCheck[]>>;
    /** Counts an account created from the request's address (the `sign-up` class's second rule). */
    accountCreated(request: FastifyRequest): Promise<void>;
  }
}

/** The 429 once an address has created its accounts for the day: it says why, so a household understands. */
export function tooManyAccounts(retryAfterSeconds: number): DomainError {
  const hours = Math.max(1, Math.ceil(retryAfterSeconds / 3600));
  return new DomainError(
    429,
    'rate_limited',
    `Too many accounts were created from your network today. Try again in ${hours} hour${hours === 1 ? '' : 's'}, or ask someone who already has an account here to contact the administrators.`,
    undefined,
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}

/** A text field of a JSON body that has not been validated yet: rate limits run before validation. */
function bodyText(request: FastifyRequest, field: string): string {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * What each rate-limit class counts and by what (DESIGN.md "Default limits"). Every class is checked before
 * the body is validated or an upload read, so refused requests cost almost nothing.
 */
export function rateClassChecks(
  app: FastifyInstance,
  users: UsersRepository,
  signUpLimits: Config['signUpLimits'] = {
    attemptsPerIp: rateLimits.signUp.max,
    accountsPerIp: rateLimits.signUpAccounts.max,
  },
): Record<RateClass, RequestCheck[]> {
  const accountKeys = new WeakMap<FastifyRequest, Promise<string>>();
  /** The account a sign-in names, whichever name it is given by; looked up once per request. */
  const accountKey = (request: FastifyRequest): Promise<string> => {
    let key = accountKeys.get(request);
    if (!key) {
      const value = bodyText(request, 'identifier');
      key = (value.includes('@') ? users.findByEmail(value) : users.findByUsername(value)).then(
        (row) => (row ? `uid:${row.id}` : `name:${value}`),
      );
      accountKeys.set(request, key);
    }
    return key;
  };
  const perAccountRule = (name: string, rule: { max: number; windowMs: number }) =>
    app.limit({ name, ...rule, key: perAccount });
  const accountsCreated = app.successLimit({
    name: 'sign-up-created',
    windowMs: rateLimits.signUpAccounts.windowMs,
    max: signUpLimits.accountsPerIp,
    refusal: tooManyAccounts,
  });
  app.decorate('accountCreated', (request: FastifyRequest) => accountsCreated.count(request));

  return {
    // Attempts per address, refused ones included, generously; then accounts created per address, counted
    // only when one is (issue: moderation and administration §7), so typos never lock a household out.
    'sign-up': [
      app.limit({
        name: 'sign-up',
        windowMs: rateLimits.signUp.windowMs,
        max: signUpLimits.attemptsPerIp,
      }),
      accountsCreated.check,
    ],
    // Per address first, then per account and address, then per account: a request refused by an earlier
    // rule does not count against a later one, so guesses from elsewhere barely touch the owner's budget.
    'sign-in': [
      app.limit({ name: 'sign-in-ip', ...rateLimits.signIn }),
      app.limit({
        name: 'sign-in-account-ip',
        ...rateLimits.signInPerAccountAddress,
        key: async (request) => `${await accountKey(request)}:ip:${clientAddress(request)}`,
      }),
      app.limit({ name: 'sign-in-account', ...rateLimits.signInPerAccount, key: accountKey }),
    ],
    // Every rule runs before the address is looked up, so a 429 says nothing about whether it has an
    // account; the instance-wide cap comes last so that requests refused per client do not spend it.
    'password-reset': [
      app.limit({ name: 'reset-ip', ...rateLimits.passwordResetPerIp }),
      app.limit({
        name: 'reset-address',
        ...rateLimits.passwordReset,
        key: (request) => bodyText(request, 'email'),
      }),
      app.limit({
        name: 'reset-instance',
        ...rateLimits.passwordResetPerInstance,
        key: () => 'all',
      }),
    ],
    'reset-token': [app.limit({ name: 'reset-token-ip', ...rateLimits.signIn })],
    'email-confirm': [app.limit({ name: 'email-confirm', ...rateLimits.signIn })],
    'account-change': [perAccountRule('account-change', rateLimits.accountChange)],
    'profile-edit': [app.limit({ name: 'profile-edit', ...rateLimits.profileEdit })],
    post: [perAccountRule('post', rateLimits.post)],
    'post-edit': [perAccountRule('post-edit', rateLimits.post)],
    comment: [perAccountRule('comment', rateLimits.comment)],
    'comment-edit': [perAccountRule('comment-edit', rateLimits.comment)],
    reaction: [perAccountRule('reaction', rateLimits.reaction)],
    'comment-like': [perAccountRule('comment-like', rateLimits.reaction)],
    follow: [perAccountRule('follow', rateLimits.reaction)],
    block: [perAccountRule('block', rateLimits.block)],
    report: [perAccountRule('report', rateLimits.report)],
    moderation: [perAccountRule('moderation', rateLimits.moderation)],
    search: [app.limit({ name: 'search', ...rateLimits.search })],
    'notification-change': [perAccountRule('notification-change', rateLimits.notificationChange)],
    unsubscribe: [app.limit({ name: 'unsubscribe', ...rateLimits.unsubscribe })],
    'web-vitals': [app.limit({ name: 'web-vitals', ...rateLimits.webVitals })],
  };
}
