import { describe, expect, it, vi } from 'vitest';
import type { UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.js';
import { applyServerErrors } from './form-errors.js';

interface Form {
  email: string;
  username: string;
}

function setErrorSpy() {
  return vi.fn<UseFormSetError<Form>>();
}

describe('applyServerErrors', () => {
  it('puts field errors on their fields, focusing the first in form order, and leaves no alert', () => {
    const setError = setErrorSpy();
    const error = new ApiError({
      status: 409,
      code: 'conflict',
      message: 'Check the highlighted fields.',
      fields: { username: 'That username is taken.', email: 'That email is registered.' },
    });
    expect(applyServerErrors<Form>(error, setError, ['email', 'username'])).toBeNull();
    expect(setError.mock.calls).toEqual([
      ['email', { type: 'server', message: 'That email is registered.' }, { shouldFocus: true }],
      ['username', { type: 'server', message: 'That username is taken.' }, { shouldFocus: false }],
    ]);
  });

  it('returns the message when no field matches', () => {
    const setError = setErrorSpy();
    const error = new ApiError({
      status: 401,
      code: 'invalid_credentials',
      message: 'Wrong email, username or password.',
    });
    expect(applyServerErrors<Form>(error, setError, ['email'])).toBe(
      'Wrong email, username or password.',
    );
    expect(setError).not.toHaveBeenCalled();
  });

  it('returns messages of fields the form does not show', () => {
    const setError = setErrorSpy();
    const error = new ApiError({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid.',
      fields: { email: 'Bad email.', token: 'Bad token.' },
    });
    expect(applyServerErrors<Form>(error, setError, ['email'])).toBe('Bad token.');
  });

  it('has a generic message for anything that is not an ApiError', () => {
    expect(applyServerErrors<Form>(new Error('boom'), setErrorSpy(), ['email'])).toBe(
      'Something went wrong. Please try again.',
    );
  });
});
