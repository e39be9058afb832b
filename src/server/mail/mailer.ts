import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { privateModes, restrictIfPresent } from '../private-files.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link a person needs from this message. Never logged: it carries a one-time token. */
  link?: string;
  /** Extra headers, such as `List-Unsubscribe` (RFC 2369, RFC 8058) on notification mail. */
  headers?: Record<string, string>;
}

/** Sends mail over SMTP_URL, or writes .eml files to DATA_DIR/outbox when no SMTP server is configured. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Headers written as given, on one line each (RFC 5322 allows 998 characters), when they are plain printable
 * ASCII: a `List-Unsubscribe` URL stays whole for whoever reads the message. Anything else, a line break
 * above all, is left to nodemailer to encode, so no value can add a header of its own.
 */
function preparedHeaders(
  headers: Record<string, string>,
): Record<string, string | { prepared: true; value: string }> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      /^[\x20-\x7e]{1,900}$/.test(value) ? { prepared: true as const, value } : value,
    ]),
  );
}

export function createMailer(config: Config, log: Logger): Mailer {
  const outbox = path.join(config.dataDir, 'outbox');
  // Mail holds one-time links: an outbox an earlier version left readable is narrowed at start.
  if (!config.smtpUrl) restrictIfPresent(outbox, privateModes.dir);
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async send(message) {
      const envelope = {
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.headers ? { headers: preparedHeaders(message.headers) } : {}),
      };
      const info = (await transport.sendMail(envelope)) as { message?: Buffer };
      if (config.smtpUrl) return;
      await mkdir(outbox, { recursive: true, mode: privateModes.dir });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      const file = path.join(outbox, name);
      // Written beside, then renamed: whoever reads the outbox sees whole messages or none.
      const partial = path.join(outbox, `.${name}.partial`);
      await writeFile(partial, info.message ?? '', { mode: privateModes.file });
      await rename(partial, file);
      // The file, never the link: a log line would hand its token to whoever reads the logs.
      log.info({ file }, `mail written to the outbox: ${message.subject}`);
    },
    close() {
      transport.close();
    },
  };
}

/** Text made safe to place in HTML, element content or a quoted attribute. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Plain-text and HTML bodies for a message with one call to action. */
export function actionMail(options: {
  instanceName: string;
  greeting: string;
  lines: string[];
  actionLabel: string;
  actionUrl: string;
  footer: string;
}): { text: string; html: string } {
  const { instanceName, greeting, lines, actionLabel, actionUrl, footer } = options;
  const text = [
    greeting,
    '',
    ...lines,
    '',
    `${actionLabel}: ${actionUrl}`,
    '',
    footer,
    '',
    `— ${instanceName}`,
  ].join('\n');
  const paragraphs = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#2b2118">
<p>${escapeHtml(greeting)}</p>${paragraphs}
<p><a href="${escapeHtml(actionUrl)}" style="display:inline-block;padding:10px 18px;background:#b4451f;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(actionLabel)}</a></p>
<p style="font-size:13px;color:#6b5b4e">${escapeHtml(footer)}<br>${escapeHtml(actionUrl)}</p>
<p style="font-size:13px;color:#6b5b4e">— ${escapeHtml(instanceName)}</p></body></html>`;
  return { text, html };
}
