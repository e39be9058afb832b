import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { actionMail, type MailMessage, type Mailer } from './mailer.js';

/** What happened to an account, as told to its (previous) address. */
export type SecurityChange =
  | { kind: 'password-changed' }
  | { kind: 'password-reset' }
  | { kind: 'email-changed'; newEmail: string };

/** `a•••@example.com`: enough for the owner to recognise an address, not enough to hand it to a stranger. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long' });
const month = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long' });

/**
 * "Tuesday 3 June 2025, 14:03 UTC": one zone for every reader, named, since a mail cannot know theirs. Built
 * from single fields, so the punctuation does not move with the ICU version.
 */
export function formatUtc(at: Date): string {
  const time = at.toISOString().slice(11, 16);
  return `${weekday.format(at)} ${at.getUTCDate()} ${month.format(at)} ${at.getUTCFullYear()}, ${time} UTC`;
}

/**
 * The notice sent when a password or email address changes (issue: notifications, "security mail"): what
 * changed, when, from which device when known, and what to do if it was not the owner.
 */
export function securityMail(
  config: Pick<Config, 'instanceName' | 'publicUrl' | 'contactEmail'>,
  user: { email: string; name: string; username: string | null },
  change: SecurityChange,
  /** `device` summarises the browser that made the change ("Firefox on Windows"); null when unknown. */
  context: { at: Date; device: string | null },
): MailMessage {
  const { instanceName, publicUrl, contactEmail } = config;
  const account = user.username
    ? `your ${instanceName} account @${user.username}`
    : `your ${instanceName} account`;
  const details = [
    `When: ${formatUtc(context.at)}`,
    ...(context.device ? [`Device: ${context.device}`] : []),
  ];
  const tellAdministrators = contactEmail
    ? `write to the administrators at ${contactEmail}`
    : 'tell the administrators';
  const common = {
    instanceName,
    greeting: `Hello ${user.name},`,
    footer: 'We send this notice whenever a password or email address changes, for your safety.',
  };
  switch (change.kind) {
    case 'password-changed':
    case 'password-reset':
      return {
        to: user.email,
        subject: `Your ${instanceName} password was changed`,
        ...actionMail({
          ...common,
          lines: [
            change.kind === 'password-changed'
              ? `The password of ${account} was changed from its account settings.`
              : `The password of ${account} was reset with a link sent to this address.`,
            ...details,
            'If this was you, there is nothing more to do.',
            // A reset link goes to this very address, so the owner can take the account back with it.
            `If it wasn't you, reset your password now with the link below (it signs out every session) and ${tellAdministrators}.`,
          ],
          actionLabel: 'Reset your password',
          actionUrl: `${publicUrl}/reset-password`,
        }),
      };
    case 'email-changed':
      return {
        to: user.email,
        subject: `Your ${instanceName} email address was changed`,
        ...actionMail({
          ...common,
          lines: [
            `The email address of ${account} was changed to ${maskEmail(change.newEmail)}. This address no longer signs in to it, and reset links now go to the new one.`,
            ...details,
            'If this was you, there is nothing more to do.',
            `If it wasn't you, sign in with your username and password, change your password and put your address back in your account settings. If you can no longer sign in, ${tellAdministrators} at once.`,
          ],
          actionLabel: 'Open your account settings',
          actionUrl: `${publicUrl}/settings/account`,
        }),
      };
  }
}

/**
 * Sends a notice about a change that is already saved, without making the caller wait for it: a mail server
 * that fails or hangs never turns the saved change into an error or holds up its answer; it is logged.
 */
export function sendNotice(mailer: Mailer, log: Logger, message: MailMessage): void {
  const failed = (error: unknown) => {
    log.warn({ err: error }, `could not send the notice: ${message.subject}`);
  };
  try {
    mailer.send(message).catch(failed);
  } catch (error) {
    failed(error);
  }
}
