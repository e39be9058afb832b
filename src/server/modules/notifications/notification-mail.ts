import type { NotificationKind } from '../../../shared/schemas/notification.js';
import type { Config } from '../../config.js';
import { escapeHtml, type MailMessage } from '../../mail/mailer.js';

/** One notification told in a mail: who did what, to which text, and where to see it. */
export interface MailLine {
  kind: NotificationKind;
  /** The actor as a mail names them ("Ana Lima (@ana)"). */
  actor: string;
  /** Whether it happened in a comment (a mention or the liked text), for the wording. */
  inComment: boolean;
  /** The first words of the post or comment it is about; empty when there is none. */
  excerpt: string;
  url: string;
}

type MailConfig = Pick<Config, 'instanceName' | 'publicUrl'>;

/** "Ana Lima (@ana) replied to your comment": what happened, in words. */
export function sentenceOf(line: Pick<MailLine, 'kind' | 'actor' | 'inComment'>): string {
  switch (line.kind) {
    case 'follow':
      return `${line.actor} followed you.`;
    case 'like':
      return `${line.actor} liked your post.`;
    case 'comment_like':
      return `${line.actor} liked your comment.`;
    case 'comment':
      return `${line.actor} commented on your post.`;
    case 'reply':
      return `${line.actor} replied to your comment.`;
    case 'mention':
      return `${line.actor} mentioned you in a ${line.inComment ? 'comment' : 'post'}.`;
    // The moderators' kinds and staff's are mailed by their own messages (notifyModeration), never as
    // lines of these mails; the words stay for completeness.
    case 'report_resolved':
      return 'The moderators resolved your report.';
    case 'warning':
      return 'The moderators sent you a warning.';
    case 'suspension':
      return 'The moderators suspended your account.';
    case 'suspension_lifted':
      return 'Your suspension was lifted.';
    case 'appeal_decided':
      return 'The moderators decided your appeal.';
    case 'content_removed':
      return 'The moderators removed something you wrote.';
    case 'new_report':
      return 'Something new was reported.';
    case 'new_appeal':
      return `${line.actor} appealed their suspension.`;
    case 'signup_pending':
      return `${line.actor} is waiting for approval.`;
  }
}

/** Where a notification leads: the post, or the follower's profile (spec §2: profiles live at /{username}). */
export function notificationUrl(
  publicUrl: string,
  about: { postId: string | null; actorUsername: string | null },
): string {
  if (about.postId !== null) return `${publicUrl}/post/${about.postId}`;
  if (about.actorUsername) return `${publicUrl}/${about.actorUsername}`;
  return `${publicUrl}/notifications`;
}

/**
 * The links every notification mail carries: the unsubscribe page (the web app's, which asks before it
 * acts), the one-click endpoint mail clients POST to (RFC 8058), and the settings page.
 */
export function mailLinks(publicUrl: string, token: string) {
  return {
    unsubscribePage: `${publicUrl}/unsubscribe/${token}`,
    oneClick: `${publicUrl}/api/unsubscribe/${token}`,
    settings: `${publicUrl}/settings/notifications`,
  };
}

function compose(
  config: MailConfig,
  to: { email: string; name: string },
  subject: string,
  body: {
    intro: string[];
    lines: MailLine[];
    more: string | null;
    action: { label: string; url: string };
  },
  token: string,
  stops: string,
): MailMessage {
  const links = mailLinks(config.publicUrl, token);
  const quoted = (line: MailLine) => (line.excerpt ? `“${line.excerpt}”` : '');
  const text = [
    `Hello ${to.name},`,
    '',
    ...body.intro.flatMap((line) => [line, '']),
    ...body.lines.flatMap((line) => [
      sentenceOf(line),
      ...(line.excerpt ? [quoted(line)] : []),
      line.url,
      '',
    ]),
    ...(body.more ? [body.more, ''] : []),
    `${body.action.label}: ${body.action.url}`,
    '',
    `Choose which notifications you get, and how: ${links.settings}`,
    `${stops} Unsubscribe: ${links.unsubscribePage}`,
    '',
    `— ${config.instanceName}`,
  ].join('\n');
  const muted = 'font-size:13px;color:#6b5b4e';
  const items = body.lines
    .map(
      (line) =>
        `<p>${escapeHtml(sentenceOf(line))}${line.excerpt ? `<br><span style="color:#6b5b4e">${escapeHtml(quoted(line))}</span>` : ''}<br><a href="${escapeHtml(line.url)}">${escapeHtml(line.url)}</a></p>`,
    )
    .join('');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#2b2118">
<p>${escapeHtml(`Hello ${to.name},`)}</p>${body.intro.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}${items}${body.more ? `<p>${escapeHtml(body.more)}</p>` : ''}
<p><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:10px 18px;background:#b4451f;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(body.action.label)}</a></p>
<p style="${muted}"><a href="${escapeHtml(links.settings)}">Choose which notifications you get, and how</a>.<br>${escapeHtml(stops)} <a href="${escapeHtml(links.unsubscribePage)}">Unsubscribe</a>.</p>
<p style="${muted}">— ${escapeHtml(config.instanceName)}</p></body></html>`;
  return {
    to: to.email,
    subject,
    text,
    html,
    link: links.unsubscribePage,
    headers: {
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

const stopsKind: Record<NotificationKind, string> = {
  follow: 'To stop mail about new followers:',
  like: 'To stop mail about likes of your posts:',
  comment_like: 'To stop mail about likes of your comments:',
  comment: 'To stop mail about comments on your posts:',
  reply: 'To stop mail about replies to your comments:',
  mention: 'To stop mail about mentions:',
  report_resolved: 'To stop mail about your reports:',
  warning: 'To stop mail about warnings:',
  suspension: 'To stop mail about suspensions:',
  suspension_lifted: 'To stop mail about suspensions:',
  appeal_decided: 'To stop mail about appeals:',
  content_removed: 'To stop mail about removed content:',
  new_report: 'To stop mail about new reports:',
  new_appeal: 'To stop mail about new appeals:',
  signup_pending: 'To stop mail about sign-ups:',
};

/** The mail sent as a notification happens (mentions, replies and comments). */
export function immediateMail(
  config: MailConfig,
  to: { email: string; name: string },
  line: MailLine,
  token: string,
): MailMessage {
  return compose(
    config,
    to,
    `${sentenceOf(line).replace(/\.$/, '')} on ${config.instanceName}`,
    {
      intro: [],
      lines: [line],
      more: null,
      action: { label: line.kind === 'follow' ? 'See the profile' : 'See it', url: line.url },
    },
    token,
    stopsKind[line.kind],
  );
}

/** The daily digest: the newest notifications waiting, and how many more there were. */
export function digestMail(
  config: MailConfig,
  to: { email: string; name: string },
  lines: MailLine[],
  more: number,
  token: string,
): MailMessage {
  const total = lines.length + more;
  return compose(
    config,
    to,
    `${total} new notification${total === 1 ? '' : 's'} on ${config.instanceName}`,
    {
      intro: [`Here is what happened on ${config.instanceName} since your last digest.`],
      lines,
      more: more > 0 ? `And ${more} more.` : null,
      action: { label: 'See all your notifications', url: `${config.publicUrl}/notifications` },
    },
    token,
    'To stop this daily digest:',
  );
}
