/*
 * What a row reads back as differs by dialect (ADR 0001): PostgreSQL returns timestamptz as a Date and
 * bigint (ids, sums, counts) as decimal text; SQLite returns ISO text and numbers. Repositories turn
 * each value into one shape with these as rows leave them, so services and presenters see one type.
 */

/** ISO-8601 text exactly as `Date.prototype.toISOString` writes it, as Hearth stores every timestamp. */
const isoText = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp of either dialect as ISO-8601 text; SQLite's text in that form already is as it stays. */
export function toIsoString(value: Date | string): string {
  if (typeof value === 'string' && isoText.test(value)) return value;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** As toIsoString, keeping null for a timestamp that is not set. */
export function toIsoStringOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIsoString(value);
}

/** An integer id of either dialect as the decimal string the contract uses. */
export function toId(value: number | string | bigint): string {
  return String(value);
}

/** As toId, keeping null for a reference that is not set. */
export function toIdOrNull(value: number | string | bigint | null): string | null {
  return value === null ? null : toId(value);
}

/** A count or sum of either dialect as a number (PostgreSQL sums and counts bigints as text). */
export function toCount(value: number | string | bigint): number {
  return Number(value);
}

/**
 * Whether an account is active: SQLite stores the flag as 0/1, PostgreSQL as a boolean, and accounts made
 * before the column existed have none, which means active.
 */
export function toActive(value: number | boolean | null): boolean {
  return value === null ? true : Boolean(value);
}

/** Either dialect's answer to EXISTS (a boolean, or 0/1) as a boolean. */
export const isTrue = (value: unknown): boolean => value === true || Number(value) === 1;
