/**
 * A count as English writes it, "1,234", without `Intl`: a page's first `Intl` formatter or `toLocaleString`
 * loads the browser's locale data, and every list shows counts in its first render (ADR 0045).
 */
export function countLabel(value: number): string {
  if (!Number.isFinite(value)) return '';
  const whole = Math.trunc(Math.abs(value));
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}

/** A count and the noun it counts, as English writes them: "1 comment", "1,234 comments". */
export function countOf(count: number, one: string, many: string): string {
  return `${countLabel(count)} ${count === 1 ? one : many}`;
}
