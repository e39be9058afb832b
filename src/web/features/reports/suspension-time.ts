const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** How far ahead a time is, as people say it: "in 3 days", "in 5 hours", "in a few minutes". */
export function timeUntilLabel(iso: string, now: number, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const left = time - now;
  if (left <= minute) return 'in a moment';
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (left < hour) return relative.format(Math.ceil(left / minute), 'minute');
  if (left < 2 * day) return relative.format(Math.round(left / hour), 'hour');
  return relative.format(Math.round(left / day), 'day');
}
