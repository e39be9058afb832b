import { limits } from '@shared/limits.js';

/** Hints shown under the fields, built from the shared limits so they never disagree with the server. */
export const usernameHint = `${limits.username.min}–${limits.username.max} lowercase letters, digits, underscores.`;
export const passwordHint = `At least ${limits.password.min} characters.`;
