import { meResponseSchema } from '../../schemas/account.js';
import {
  messageResponseSchema,
  okResponseSchema,
  requestPasswordResetBodySchema,
  resetPasswordBodySchema,
  sessionResponseSchema,
  signInBodySchema,
  signUpBodySchema,
} from '../../schemas/auth.js';
import { defineEndpoint } from '../endpoint.js';

/**
 * Sign-up, sign-in, sign-out, the session and password reset (issue: accounts). Answers that set or
 * depend on a session carry `Cache-Control: no-store`.
 */
export const authEndpoints = {
  signUp: defineEndpoint({
    id: 'signUp',
    method: 'POST',
    path: '/api/auth/sign-up',
    tag: 'Auth',
    summary: 'Create an account',
    description:
      'Creates the account and signs it in: the session cookie comes with the answer. Where new accounts need approval it starts inactive, able to browse and manage itself until an administrator activates it. 403 `registration_closed` when the instance takes no sign-ups; 409 on `email` or `username` when either is taken or reserved.',
    access: 'public',
    body: signUpBodySchema,
    status: 201,
    response: meResponseSchema,
    errors: [403, 409],
    rateLimit: ['sign-up'],
  }),
  signIn: defineEndpoint({
    id: 'signIn',
    method: 'POST',
    path: '/api/auth/sign-in',
    tag: 'Auth',
    summary: 'Sign in',
    description:
      '`identifier` is the email address or the username, in any case. Sets the session cookie. Inactive accounts sign in too. A wrong pair answers 401 `invalid_credentials` without saying which half was wrong.',
    access: 'public',
    body: signInBodySchema,
    status: 200,
    response: meResponseSchema,
    errors: [401],
    rateLimit: ['sign-in'],
  }),
  signOut: defineEndpoint({
    id: 'signOut',
    method: 'POST',
    path: '/api/auth/sign-out',
    tag: 'Auth',
    summary: 'Sign out',
    description:
      'Ends the session and clears its cookie. Open to everyone, inactive users included; without a session there is nothing to end, and the answer is the same.',
    access: 'public',
    status: 200,
    response: okResponseSchema,
  }),
  getSession: defineEndpoint({
    id: 'getSession',
    method: 'GET',
    path: '/api/auth/session',
    tag: 'Auth',
    summary: 'Who is signed in',
    description:
      '`user` is null when nobody is. Rolls the session expiry forward, so a renewed cookie may come with the answer.',
    access: 'public',
    status: 200,
    response: sessionResponseSchema,
  }),
  requestPasswordReset: defineEndpoint({
    id: 'requestPasswordReset',
    method: 'POST',
    path: '/api/auth/request-password-reset',
    tag: 'Auth',
    summary: 'Ask for a password-reset link',
    description:
      'Answers 202 with the same message whether or not an account uses the address, so it tells nobody which addresses have one. When one does, a link that works once, for one hour, is mailed to it.',
    access: 'public',
    body: requestPasswordResetBodySchema,
    status: 202,
    response: messageResponseSchema,
    rateLimit: ['password-reset'],
  }),
  resetPassword: defineEndpoint({
    id: 'resetPassword',
    method: 'POST',
    path: '/api/auth/reset-password',
    tag: 'Auth',
    summary: 'Set a new password with a reset link',
    description:
      "Takes the mailed link's one-time token and ends every session of the account. 400 `invalid_token` when the link expired or was already used.",
    access: 'public',
    body: resetPasswordBodySchema,
    status: 200,
    response: okResponseSchema,
    rateLimit: ['reset-token'],
  }),
} as const;
