const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Older than this, a post shows its date instead of "n days ago". */
const relativeLimit = 7 * day;

/*
 * Dates, times and counts are written in the interface's language, English, without `Intl` (ADR 0045).
 * The page's first `Intl` formatter of any kind loads the browser's locale data (ICU): about 20 ms of a
 * fast machine's main thread, four times that on a phone, and every list shows dates and counts in its
 * first render. The reader's region still decides the order of day and month and the clock, as English
 * does: "Mar 4" and "2:15 PM" in the United States, "4 Mar" and "14:15" elsewhere.
 */

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Whether a locale writes the month first and a 12-hour clock: English as the United States writes it. */
function isUsEnglish(locale: string | undefined): boolean {
  const tag = (
    locale ?? (typeof navigator === 'undefined' ? 'en-US' : navigator.language)
  ).toLowerCase();
  return tag === 'en' || tag.startsWith('en-us');
}

function monthName(date: Date, form: 'short' | 'long'): string {
  const name = monthNames[date.getMonth()] ?? '';
  return form === 'short' ? name.slice(0, 3) : name;
}

/** A day of the year: "Mar 4" or "4 Mar" (short), "March 4, 2026" or "4 March 2026" (long). */
function dayLabel(
  date: Date,
  form: 'short' | 'long',
  withYear: boolean,
  usEnglish: boolean,
): string {
  const month = monthName(date, form);
  const dayOfMonth = date.getDate();
  if (usEnglish) {
    return withYear ? `${month} ${dayOfMonth}, ${date.getFullYear()}` : `${month} ${dayOfMonth}`;
  }
  return withYear ? `${dayOfMonth} ${month} ${date.getFullYear()}` : `${dayOfMonth} ${month}`;
}

/** The time of day: "2:15 PM" or "14:15". */
function clockLabel(date: Date, usEnglish: boolean): string {
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const hours = date.getHours();
  if (usEnglish) return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${String(hours).padStart(2, '0')}:${minutes}`;
}

function ago(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** When something was written, as people say it: "just now", "5 minutes ago", "yesterday", "Mar 4". */
export function relativeTimeLabel(iso: string, now: number, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  if (elapsed < minute) return 'just now';
  if (elapsed < hour) return ago(Math.floor(elapsed / minute), 'minute');
  if (elapsed < day) return ago(Math.floor(elapsed / hour), 'hour');
  if (elapsed < relativeLimit) {
    const days = Math.floor(elapsed / day);
    return days === 1 ? 'yesterday' : ago(days, 'day');
  }
  const date = new Date(time);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return dayLabel(date, 'short', !sameYear, isUsEnglish(locale));
}

/** The full date and time, for tooltips and the history of edits: "March 4, 2026 at 2:15 PM". */
export function fullTimeLabel(iso: string, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const date = new Date(time);
  const usEnglish = isUsEnglish(locale);
  return `${dayLabel(date, 'long', true, usEnglish)} at ${clockLabel(date, usEnglish)}`;
}

/** A day, without the time: "March 4, 2026" or "4 March 2026". */
export function longDateLabel(when: string | Date, locale?: string): string {
  const time = typeof when === 'string' ? Date.parse(when) : when.getTime();
  if (Number.isNaN(time)) return '';
  return dayLabel(new Date(time), 'long', true, isUsEnglish(locale));
}

/** A month: "March 2026". */
export function monthLabel(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const date = new Date(time);
  return `${monthName(date, 'long')} ${date.getFullYear()}`;
}
