import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Socket errors that mean the database server cannot be reached at all. */
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is shutting down, starting, or full (class 08 "connection
 * exception", 57P01–57P03, 53300 "too many connections").
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code);
}

/** Messages of the pg driver and pool for a connection that could not be made or was lost. */
const driverMessages = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
];

/** Errors raised while a probe found the database unreachable (libraries may hide the cause). */
const confirmedUnreachable = new WeakSet<object>();

/** Records that `error` happened while the database was unreachable. */
export function markDatabaseUnreachable(error: object): void {
  confirmedUnreachable.add(error);
}

/** How long one reachability answer is reused, so a burst of failing requests asks the database once. */
const probeCacheMs = 1_000;
/** A database that has not answered `select 1` by then is treated as unreachable. */
const probeTimeoutMs = 1_000;

/**
 * Asks the database whether it answers, for failures whose cause a library has wrapped away (the auth
 * library answers "failed to get session" for a lost connection). Answers are shared and cached briefly.
 */
export function reachabilityProbe(db: Kysely<Database>): () => Promise<boolean> {
  let cached: { at: number; answer: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (cached && now - cached.at < probeCacheMs) return cached.answer;
    let timer: NodeJS.Timeout | undefined;
    const answer = Promise.race([
      sql`select 1`.execute(db).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), probeTimeoutMs);
      }),
    ])
      .catch(() => false)
      .finally(() => clearTimeout(timer));
    cached = { at: now, answer };
    return answer;
  };
}

/**
 * Whether `error` (or an error it wraps) says the database is unreachable rather than that the request
 * was wrong: such a failure is the service's, temporary, and answered 503.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (typeof error === 'object' && error !== null && confirmedUnreachable.has(error)) return true;
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code: unknown = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (networkCodes.has(code) || isUnavailableSqlState(code))) {
      return true;
    }
    if (
      driverMessages.some(
        (message) => current instanceof Error && current.message.includes(message),
      )
    ) {
      return true;
    }
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnreachable))
      return true;
    current = current.cause;
  }
  return false;
}
