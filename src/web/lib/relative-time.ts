const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Older than this, a post shows its date instead of "n days ago". */
const relativeLimit = 7 * day;

/** When something was written, as people say it: "just now", "5 minutes ago", "yesterday", "Mar 4". */
export function relativeTimeLabel(iso: string, now: number, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (elapsed < minute) return 'just now';
  if (elapsed < hour) return relative.format(-Math.floor(elapsed / minute), 'minute');
  if (elapsed < day) return relative.format(-Math.floor(elapsed / hour), 'hour');
  if (elapsed < relativeLimit) return relative.format(-Math.floor(elapsed / day), 'day');
  const date = new Date(time);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    year: sameYear ? undefined : 'numeric',
  }).format(date);
}

/** The full date and time, for tooltips and the history of edits. */
export function fullTimeLabel(iso: string, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(time);
}
