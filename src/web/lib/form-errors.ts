import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.js';

const unexpectedMessage = 'Something went wrong. Please try again.';

/**
 * Puts a failed request's field errors on the matching inputs (focusing the first, in form order)
 * and returns what is left for the form-level alert: the server's message when no field matched,
 * messages for fields this form does not show, or null.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
): string | null {
  if (!(error instanceof ApiError)) return unexpectedMessage;
  let matched = false;
  for (const name of fieldNames) {
    const message = error.fields[name];
    if (message === undefined) continue;
    setError(name, { type: 'server', message }, { shouldFocus: !matched });
    matched = true;
  }
  if (!matched) return error.message;
  const shown = new Set<string>(fieldNames);
  const rest = Object.entries(error.fields)
    .filter(([name]) => !shown.has(name))
    .map(([, message]) => message);
  return rest.length > 0 ? rest.join(' ') : null;
}
