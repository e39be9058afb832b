import type { ErrorCode } from '../shared/error-codes.js';

/** A failure a client can act on; the error handler turns it into the one JSON error shape. */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class NotFound extends DomainError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Sign in to do that.') {
    super(401, 'unauthenticated', message);
  }
}

/** A request of an account deleted after it was let in (ADR 0049): its write found no account to key to. */
export class AccountDeleted extends Unauthenticated {
  constructor() {
    super('Your account no longer exists.');
  }
}

export class Forbidden extends DomainError {
  constructor(message = "You don't have permission to do that.", code: ErrorCode = 'forbidden') {
    super(403, code, message);
  }
}

/** spec §4/§6: a signed-in inactive user may browse but not change anything. */
export class AccountInactive extends Forbidden {
  constructor() {
    super(
      'Your account is awaiting activation by an administrator. You can browse, but not make changes yet.',
      'account_inactive',
    );
  }
}

/** ADR 0021: a suspended account reads, appeals and manages its own account, but changes nothing else. */
export class AccountSuspended extends Forbidden {
  constructor(until: Date | null) {
    super(
      until
        ? `Your account is suspended until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC. You can browse and appeal, but not post or interact.`
        : 'Your account is suspended. You can browse and appeal, but not post or interact.',
      'account_suspended',
    );
  }
}

/** Bad input, with a message per form field where one applies. */
export class Invalid extends DomainError {
  constructor(message: string, fields?: Record<string, string>) {
    super(400, 'validation_failed', message, fields);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, fields?: Record<string, string>) {
    super(409, 'conflict', message, fields);
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      429,
      'rate_limited',
      `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      undefined,
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    );
  }
}
