import { z } from 'zod';
import { limits } from '../limits.js';
import { meSchema, personNameSchema, usernameSchema } from './user.js';

export const emailSchema = z
  .string({ error: 'Enter your email address.' })
  .trim()
  .toLowerCase()
  .min(1, 'Enter your email address.')
  .max(limits.email.max, 'That email address is too long.')
  .pipe(z.email('Enter a valid email address, like name@example.com.'));

/** Length rules only; the server also refuses common passwords (too large a list to ship to browsers). */
export const passwordSchema = z
  .string({ error: 'Enter a password.' })
  .min(limits.password.min, `Use at least ${limits.password.min} characters.`)
  .max(limits.password.max, `Use at most ${limits.password.max} characters.`);

export const signUpBodySchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  password: passwordSchema,
  firstName: personNameSchema.pipe(z.string().min(1, 'Enter your first name.')),
  lastName: personNameSchema.pipe(z.string().min(1, 'Enter your last name.')),
  /**
   * Approval mode: the answer to the instance's sign-up question, required there when a question is set
   * (the server checks, since only it knows the mode); ignored otherwise.
   */
  signupAnswer: z
    .string()
    .trim()
    .max(limits.signupAnswer.max, `Use at most ${limits.signupAnswer.max} characters.`)
    // Line breaks are welcome in an answer; other control characters are not.
    .refine((value) => !/[^\P{Cc}\n\r\t]/u.test(value), 'Remove control characters.')
    .optional(),
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

export const signInBodySchema = z.object({
  identifier: z
    .string({ error: 'Enter your email or username.' })
    .trim()
    .min(1, 'Enter your email or username.')
    .max(limits.email.max, 'That is too long to be an email or username.'),
  password: z
    .string({ error: 'Enter your password.' })
    .min(1, 'Enter your password.')
    .max(limits.password.max, `Passwords are at most ${limits.password.max} characters.`),
});
export type SignInBody = z.input<typeof signInBodySchema>;

export const requestPasswordResetBodySchema = z.object({ email: emailSchema });
export type RequestPasswordResetBody = z.input<typeof requestPasswordResetBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: z
    .string()
    .min(1, 'This reset link is incomplete.')
    .max(256, 'This reset link is not valid.'),
  newPassword: passwordSchema,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

/** GET /api/auth/session: who is signed in. `user` is null when nobody is. */
export const sessionResponseSchema = z.object({
  user: meSchema.nullable(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
export const messageResponseSchema = z.object({ message: z.string() });
