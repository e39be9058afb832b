import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import type { EndedSessions, EventBus } from '../events/bus.js';

/**
 * How long a validated session is trusted without asking the database again. Sign-out, revocation and
 * account deletion end it at once on every instance; this bound only matters for a session removed behind
 * the application's back (an operator editing the database).
 */
export const sessionCacheTtlMs = 15_000;

/** Entries kept at most; past it the oldest go first (10,000 × ~200 bytes stays well under 10 MB). */
export const sessionCacheMaxEntries = 10_000;

/** Whose a session is. */
export interface SessionOwner {
  uid: string;
  sessionId: string;
}

/** A session the auth library has validated, and when it expires. */
export interface SessionIdentity extends SessionOwner {
  expiresAt: Date;
}

interface Entry {
  uid: string;
  sessionId: string;
  /** Epoch milliseconds after which the entry is not trusted. */
  validUntil: number;
}

export interface SessionCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/**
 * A short-lived, bounded map from session cookie to session identity, so an authenticated request does not
 * pay for a cookie signature check and a session query (issue: posts §8). Keys are hashes of the cookie, so
 * the cache (or a heap dump of it) holds no usable credential. Only the session is cached: the user row
 * (role, active) is still read on every request, so those changes apply at once.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /** Lookups in flight, shared by concurrent requests carrying the same cookie. */
  readonly #pending = new Map<string, Promise<SessionOwner | null>>();
  /** Bumped by every invalidation: a lookup that started before one must not store what it read. */
  #generation = 0;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #unsubscribe: () => void;

  constructor(
    private readonly bus: EventBus,
    private readonly log: Logger,
    options: SessionCacheOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? sessionCacheTtlMs;
    this.#maxEntries = options.maxEntries ?? sessionCacheMaxEntries;
    this.#now = options.now ?? Date.now;
    this.#unsubscribe = bus.subscribe({ sessionsEnded: (ended) => this.#forgetLocally(ended) });
  }

  /** Entries currently held, for tests and diagnostics. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The identity behind a session cookie value: cached, or read with `lookup` (which validates it) and
   * cached when valid. Invalid cookies are never cached, so garbage cannot push real sessions out.
   */
  resolve(
    cookieValue: string,
    lookup: () => Promise<SessionIdentity | null>,
  ): Promise<SessionOwner | null> {
    if (!this.bus.connected()) {
      // Sign-outs on other instances cannot reach this one now: trust nothing cached, cache nothing new,
      // and start empty once the bus is back.
      this.#entries.clear();
      return lookup().then((identity) =>
        identity ? { uid: identity.uid, sessionId: identity.sessionId } : null,
      );
    }
    const key = hash('sha256', cookieValue, 'base64url');
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry) {
      if (entry.validUntil > now) {
        return Promise.resolve({ uid: entry.uid, sessionId: entry.sessionId });
      }
      this.#entries.delete(key);
    }
    const inFlight = this.#pending.get(key);
    if (inFlight) return inFlight;

    const generation = this.#generation;
    const pending = lookup()
      .then((identity): SessionOwner | null => {
        if (!identity) return null;
        if (generation === this.#generation) this.#store(key, identity);
        return { uid: identity.uid, sessionId: identity.sessionId };
      })
      .finally(() => {
        if (this.#pending.get(key) === pending) this.#pending.delete(key);
      });
    this.#pending.set(key, pending);
    return pending;
  }

  /**
   * The one way to say that sessions ended (ADR 0013): call it after they were removed from the database.
   * Forgets them here at once, then tells every instance through the bus, whose session caches forget them
   * and whose realtime sockets opened with them carry on signed out.
   */
  async sessionsEnded(ended: EndedSessions): Promise<void> {
    this.#forgetLocally(ended);
    try {
      await this.bus.publishSessionsEnded(ended);
    } catch (error) {
      // Other instances then trust the session until their entry expires, at most the TTL.
      this.log.warn({ err: error }, 'could not tell other instances that sessions ended');
    }
  }

  close(): void {
    this.#unsubscribe();
    this.#entries.clear();
    this.#pending.clear();
  }

  #store(key: string, identity: SessionIdentity): void {
    const validUntil = Math.min(this.#now() + this.#ttlMs, identity.expiresAt.getTime());
    if (validUntil <= this.#now()) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { uid: identity.uid, sessionId: identity.sessionId, validUntil });
  }

  #forgetLocally({ uid, sessionIds }: EndedSessions): void {
    this.#generation += 1;
    // A lookup in flight may have read the session before it ended: later requests must not join it.
    this.#pending.clear();
    for (const [key, entry] of this.#entries) {
      if (entry.uid === uid && (sessionIds === null || sessionIds.includes(entry.sessionId))) {
        this.#entries.delete(key);
      }
    }
  }
}
