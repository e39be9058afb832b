import type { SessionInfo } from '@shared/schemas/account.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** What a session is called in the list and on its Revoke button. */
export function deviceLabel(session: Pick<SessionInfo, 'device'>): string {
  return session.device?.trim() || 'Unknown device';
}

/** The session in use is active by definition; its stored time lags behind by design. */
export function sessionActivityLabel(
  session: Pick<SessionInfo, 'current' | 'lastSeenAt'>,
  now: number,
  locale?: string,
): string {
  return session.current ? 'Active now' : lastActiveLabel(session.lastSeenAt, now, locale);
}

/**
 * "Last active …": relative while recent (a minute ago, 3 hours ago, 2 days ago), then the date, as
 * people read activity lists. `locale` is for tests; the page uses the browser's.
 */
export function lastActiveLabel(lastSeenAt: string, now: number, locale?: string): string {
  const time = Date.parse(lastSeenAt);
  if (Number.isNaN(time)) return 'Last active at an unknown time';
  const elapsed = Math.max(0, now - time);
  if (elapsed < minute) return 'Last active just now';
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (elapsed < hour)
    return `Last active ${relative.format(-Math.floor(elapsed / minute), 'minute')}`;
  if (elapsed < day) return `Last active ${relative.format(-Math.floor(elapsed / hour), 'hour')}`;
  if (elapsed < 7 * day) return `Last active ${relative.format(-Math.floor(elapsed / day), 'day')}`;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(time);
  return `Last active on ${date}`;
}
