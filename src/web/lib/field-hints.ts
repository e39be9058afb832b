import { limits } from '@shared/limits.js';

/** Hints shown under the fields, built from the shared limits so they never disagree with the server. */
export const usernameHint = `${limits.username.min}–${limits.username.max} lowercase letters, digits, underscores.`;
export const passwordHint = `At least ${limits.password.min} characters.`;

/** The username rules of a rename (issue: profiles): a cooldown between changes, and a redirect from the old name. */
export const usernameChangeHint = `You can change it once every ${limits.usernameChange.cooldownDays} days; your old name will redirect here for ${limits.usernameChange.reserveDays} days.`;
