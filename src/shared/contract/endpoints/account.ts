import { limits } from '../../limits.js';
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  confirmEmailBodySchema,
  deleteAccountBodySchema,
  meResponseSchema,
  sessionListSchema,
  sessionParamsSchema,
} from '../../schemas/account.js';
import { messageResponseSchema, okResponseSchema } from '../../schemas/auth.js';
import { defineEndpoint } from '../endpoint.js';

/**
 * Account settings (issue: profiles §5). Changing the email is an account change like any other, so an
 * inactive user cannot; the password, sessions and deletion are about their safety and privacy, so they
 * can (ADR 0005).
 */
export const accountEndpoints = {
  requestEmailChange: defineEndpoint({
    id: 'requestEmailChange',
    method: 'POST',
    path: '/api/account/email',
    tag: 'Account',
    summary: 'Ask to change the email address',
    description:
      'Needs the current password. Mails a confirmation link, valid for 24 hours, to the new address; the address changes only when it is followed, and a newer request replaces an older one.',
    access: 'active',
    body: changeEmailBodySchema,
    status: 202,
    response: messageResponseSchema,
    errors: [409],
    rateLimit: ['account-change'],
  }),
  confirmEmailChange: defineEndpoint({
    id: 'confirmEmailChange',
    method: 'POST',
    path: '/api/account/email/confirm',
    tag: 'Account',
    summary: 'Confirm a new email address',
    description:
      'Takes the one-time token of the mailed link, so it needs no session (the link may be opened on another device). The previous address is told of the change. 400 `invalid_token` when the link expired or was used; 409 when another account took the address meanwhile.',
    access: 'public',
    body: confirmEmailBodySchema,
    status: 200,
    response: meResponseSchema,
    errors: [409],
    rateLimit: ['email-confirm'],
  }),
  changePassword: defineEndpoint({
    id: 'changePassword',
    method: 'POST',
    path: '/api/account/password',
    tag: 'Account',
    summary: 'Change the password',
    description:
      'Needs the current password; inactive users may too. With `signOutOtherSessions` every other session ends and this one continues under a fresh cookie.',
    access: 'signed-in',
    body: changePasswordBodySchema,
    status: 200,
    response: okResponseSchema,
    rateLimit: ['account-change'],
  }),
  listSessions: defineEndpoint({
    id: 'listSessions',
    method: 'GET',
    path: '/api/account/sessions',
    tag: 'Account',
    summary: 'The devices signed in to this account',
    description:
      "The caller's own session is marked `current`. Inactive users may see and end theirs too. Never cached.",
    access: 'signed-in',
    status: 200,
    response: sessionListSchema,
  }),
  revokeSession: defineEndpoint({
    id: 'revokeSession',
    method: 'DELETE',
    path: '/api/account/sessions/{id}',
    tag: 'Account',
    summary: 'Sign a device out',
    description:
      "Ending the caller's own session signs them out. 404 for a session that already ended or is someone else's.",
    access: 'signed-in',
    params: sessionParamsSchema,
    status: 200,
    response: okResponseSchema,
    errors: [404],
  }),
  deleteAccount: defineEndpoint({
    id: 'deleteAccount',
    method: 'POST',
    path: '/api/account/delete',
    tag: 'Account',
    summary: 'Delete the account',
    description: `Needs the password; inactive users may too. Removes the account with its posts, comments, likes, follows, media and sessions for good, and clears the session cookie. The username stays reserved for ${limits.usernameChange.reserveDays} days.`,
    access: 'signed-in',
    body: deleteAccountBodySchema,
    status: 200,
    response: okResponseSchema,
    rateLimit: ['account-change'],
  }),
} as const;
