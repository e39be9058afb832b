import { z } from 'zod';
import { limits } from '../limits.js';
import { emailSchema, passwordSchema } from './auth.js';
import { meSchema } from './user.js';

const currentPasswordSchema = z
  .string({ error: 'Enter your current password.' })
  .min(1, 'Enter your current password.')
  .max(limits.password.max, `Passwords are at most ${limits.password.max} characters.`);

/** POST /api/account/email: asks for the password, then confirms by mail to the new address. */
export const changeEmailBodySchema = z.object({
  newEmail: emailSchema,
  password: currentPasswordSchema,
});
export type ChangeEmailBody = z.input<typeof changeEmailBodySchema>;

export const confirmEmailBodySchema = z.object({
  token: z.string().min(1, 'This confirmation link is incomplete.').max(256),
});

export const changePasswordBodySchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: passwordSchema,
  signOutOtherSessions: z.boolean().default(false),
});
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

export const deleteAccountBodySchema = z.object({
  password: currentPasswordSchema,
});
export type DeleteAccountBody = z.input<typeof deleteAccountBodySchema>;

/** One signed-in device, for the sessions list. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  /** "Firefox on Windows", or null when the browser did not say. */
  device: z.string().nullable(),
  ipAddress: z.string().nullable(),
  /** Approximate place, when known. */
  location: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });

export const sessionParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid session id.'),
});

export const meResponseSchema = z.object({ user: meSchema });
