/**
 * Whether a database error is a foreign-key violation: a row pointing at one that a concurrent transaction
 * deleted between a request's read and its write. The caller answers as if the row it read were gone.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  // PostgreSQL's SQLSTATE, and better-sqlite3's extended result code.
  return error.code === '23503' || error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
