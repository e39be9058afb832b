const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Older than this, a post shows its date instead of "n days ago". */
const relativeLimit = 7 * day;

/**
 * Formatters by locale and options. Building one costs far more than formatting with it (ICU looks up the
 * locale's patterns), and a list formats two times per item on every render. The keys come from this
 * module's few option sets and the page's locale, so the map stays a handful of entries.
 */
const fullTimeOptions: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short' };

const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `date|${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!(format instanceof Intl.DateTimeFormat)) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = `relative|${locale ?? ''}`;
  let format = formatters.get(key);
  if (!(format instanceof Intl.RelativeTimeFormat)) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    formatters.set(key, format);
  }
  return format;
}

/**
 * Builds the formatters a list of posts uses first. The page's first formatter of any kind also loads the
 * browser's locale data (ICU), about 10 ms on a fast machine and four times that on a phone: main.tsx asks
 * for this while the page's code and data are still on their way, so the posts do not wait for it.
 */
export function warmTimeFormats(locale?: string): void {
  relativeFormat(locale);
  dateFormat(locale, fullTimeOptions);
}

/** When something was written, as people say it: "just now", "5 minutes ago", "yesterday", "Mar 4". */
export function relativeTimeLabel(iso: string, now: number, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  if (elapsed < minute) return 'just now';
  const relative = relativeFormat(locale);
  if (elapsed < hour) return relative.format(-Math.floor(elapsed / minute), 'minute');
  if (elapsed < day) return relative.format(-Math.floor(elapsed / hour), 'hour');
  if (elapsed < relativeLimit) return relative.format(-Math.floor(elapsed / day), 'day');
  const date = new Date(time);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  const options: Intl.DateTimeFormatOptions = sameYear
    ? { month: 'short', day: 'numeric' }
    : { month: 'short', day: 'numeric', year: 'numeric' };
  return dateFormat(locale, options).format(date);
}

/** The full date and time, for tooltips and the history of edits. */
export function fullTimeLabel(iso: string, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  return dateFormat(locale, fullTimeOptions).format(time);
}
