import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { notificationDelivery } from '../../../shared/limits.js';
import {
  defaultNotificationSettings,
  inAppOnlyKinds,
} from '../../../shared/schemas/notification.js';
import { loadConfig } from '../../config.js';
import { createMailer } from '../../mail/mailer.js';
import { newlyMentioned } from './mentioned.js';
import { digestMail, immediateMail, sentenceOf, type MailLine } from './notification-mail.js';
import { settingsFrom, withoutMail } from './notification-settings.js';
import { excerptOf } from './notifications.presenter.js';

const config = { instanceName: 'Hearth Test', publicUrl: 'https://hearth.example' };
const to = { email: 'ada@example.test', name: 'Ada' };
const token = 'A'.repeat(43);
const line: MailLine = {
  kind: 'mention',
  actor: 'Bob Brown (@bob)',
  inComment: true,
  excerpt: 'Hello <b>@ada</b> & co',
  url: 'https://hearth.example/post/7',
};

describe('excerptOf', () => {
  it('keeps a short text whole, on one line', () => {
    expect(excerptOf('  Hello\n\nthere  ')).toBe('Hello there');
    expect(excerptOf('')).toBe('');
  });

  it('cuts a long text to the limit, between characters as people see them', () => {
    const family = '👩‍👩‍👧‍👦';
    const long = family.repeat(notificationDelivery.excerptChars + 10);
    const cut = excerptOf(long);
    expect(cut.endsWith('…')).toBe(true);
    const kept = cut.slice(0, -1);
    expect(kept).toBe(family.repeat(notificationDelivery.excerptChars - 1));
    expect(excerptOf('a'.repeat(notificationDelivery.excerptChars))).toHaveLength(
      notificationDelivery.excerptChars,
    );
  });
});

describe('settings', () => {
  it('reads the defaults for an account that never saved any, or from a broken row', () => {
    expect(settingsFrom(null)).toEqual(defaultNotificationSettings);
    expect(settingsFrom('{not json')).toEqual(defaultNotificationSettings);
  });

  it('keeps the valid kinds of a row that no longer parses whole', () => {
    const stored = JSON.stringify({
      like: { inApp: false, email: 'digest' },
      poke: { inApp: true, email: 'never' },
      mention: { inApp: 'yes' },
    });
    expect(settingsFrom(stored)).toEqual({
      ...defaultNotificationSettings,
      like: { inApp: false, email: 'digest' },
    });
  });

  it('an unsubscribe stops one kind, or every kind in the digest', () => {
    const settings = {
      ...defaultNotificationSettings,
      like: { inApp: true, email: 'digest' as const },
      follow: { inApp: false, email: 'digest' as const },
    };
    expect(withoutMail(settings, 'reply')).toEqual({
      ...settings,
      reply: { inApp: true, email: 'never' },
    });
    expect(withoutMail(settings, null)).toEqual({
      ...settings,
      like: { inApp: true, email: 'never' },
      follow: { inApp: false, email: 'never' },
    });
  });
});

describe('newlyMentioned', () => {
  it('lists the names an edit adds, case-insensitively', () => {
    expect(newlyMentioned('Hi @Ada', 'Hi @ada and @BOB and @bob')).toEqual(['bob']);
    expect(newlyMentioned('Hi @ada', 'Bye')).toEqual([]);
  });
});

describe('notification mail', () => {
  it('says who did what, quotes the text, links it, the settings and the unsubscribe page', () => {
    const mail = immediateMail(config, to, line, token);
    expect(mail.to).toBe(to.email);
    expect(mail.subject).toBe('Bob Brown (@bob) mentioned you in a comment on Hearth Test');
    expect(mail.link).toBe(`https://hearth.example/unsubscribe/${token}`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<https://hearth.example/api/unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('https://hearth.example/post/7');
      expect(part).toContain('https://hearth.example/settings/notifications');
      expect(part).toContain(`https://hearth.example/unsubscribe/${token}`);
    }
    expect(mail.text).toContain('“Hello <b>@ada</b> & co”');
    // Text from people is escaped in HTML.
    expect(mail.html).toContain('Hello &#60;b&#62;@ada&#60;/b&#62; &#38; co');
    expect(mail.html).not.toContain('<b>@ada</b>');
  });

  it('words every kind a mail may carry as a line', () => {
    // Kinds shown in the app only never become a line of these mails.
    const kinds = (Object.keys(defaultNotificationSettings) as MailLine['kind'][]).filter(
      (kind) => !inAppOnlyKinds.includes(kind),
    );
    const sentences = kinds.map((kind) => sentenceOf({ kind, actor: 'Bob', inComment: false }));
    expect(new Set(sentences).size).toBe(kinds.length);
    for (const sentence of sentences) expect(sentence).toMatch(/^Bob .+\.$/);
  });

  it('a digest lists what waited and how many more there were', () => {
    const mail = digestMail(
      config,
      to,
      [line, { ...line, kind: 'like', inComment: false }],
      3,
      token,
    );
    expect(mail.subject).toBe('5 new notifications on Hearth Test');
    expect(mail.text).toContain('mentioned you in a comment.');
    expect(mail.text).toContain('liked your post.');
    expect(mail.text).toContain('And 3 more.');
    expect(mail.text).toContain('https://hearth.example/notifications');
  });

  it('the outbox keeps the unsubscribe headers', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-mail-'));
    try {
      const mailer = createMailer(
        loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: config.publicUrl }),
        pino({ level: 'silent' }),
      );
      await mailer.send(immediateMail(config, to, line, token));
      mailer.close();
      const outbox = path.join(dataDir, 'outbox');
      const [file] = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
      const eml = readFileSync(path.join(outbox, file ?? ''), 'utf8');
      expect(eml).toContain(`List-Unsubscribe: <https://hearth.example/api/unsubscribe/${token}>`);
      expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
