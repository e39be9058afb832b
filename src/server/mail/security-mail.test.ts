import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from './mailer.js';
import { formatUtc, maskEmail, securityMail, sendNotice } from './security-mail.js';

const config = {
  instanceName: 'Hearth Test',
  publicUrl: 'https://hearth.example',
  contactEmail: 'team@hearth.example',
};
const user = { email: 'ada@example.test', name: 'Ada Lovelace', username: 'ada' };
const at = new Date('2025-06-03T14:03:27Z');

/** A logger whose lines a test can read. */
function capturingLogger() {
  type Line = { level: number; msg: string; err?: { message: string } };
  const lines: Line[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Line) },
  );
  return { log, lines };
}

/** A mailer whose send does what the test says. */
function mailerThat(send: (message: MailMessage) => Promise<void>): Mailer {
  return { send, close: () => undefined };
}

describe('maskEmail', () => {
  it.each([
    ['ada.lovelace@example.com', 'a•••@example.com'],
    ['a@example.com', 'a•••@example.com'],
    ['"odd@local"@example.com', '"•••@example.com'],
    ['no-at-sign', '•••'],
    ['@example.com', '•••'],
  ])('hides %j as %j', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});

describe('formatUtc', () => {
  it('names the day, date, minute and the zone', () => {
    expect(formatUtc(at)).toBe('Tuesday 3 June 2025, 14:03 UTC');
  });

  it('reads the moment in UTC whatever the server’s zone', () => {
    expect(formatUtc(new Date('2025-12-31T23:30:00-05:00'))).toBe(
      'Thursday 1 January 2026, 04:30 UTC',
    );
  });
});

describe('securityMail', () => {
  it('tells of a changed password: what, when, which device, and the reset page', () => {
    const mail = securityMail(
      config,
      user,
      { kind: 'password-changed' },
      {
        at,
        device: 'Firefox on Linux',
      },
    );
    expect(mail.to).toBe('ada@example.test');
    expect(mail.subject).toBe('Your Hearth Test password was changed');
    expect(mail.link).toBeUndefined();
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('The password of your Hearth Test account @ada was changed');
      expect(part).toContain('When: Tuesday 3 June 2025, 14:03 UTC');
      expect(part).toContain('Device: Firefox on Linux');
      expect(part).toContain('https://hearth.example/reset-password');
      expect(part).toContain('team@hearth.example');
    }
  });

  it('tells of a reset through the mailed link, and leaves the device out when it is unknown', () => {
    const mail = securityMail(config, user, { kind: 'password-reset' }, { at, device: null });
    expect(mail.text).toContain('was reset with a link sent to this address');
    expect(mail.text).not.toContain('Device:');
  });

  it('tells the old address of a new one, hidden, with the way back through the settings', () => {
    const mail = securityMail(
      { ...config, contactEmail: undefined },
      user,
      { kind: 'email-changed', newEmail: 'mallory@evil.example' },
      { at, device: null },
    );
    expect(mail.to).toBe('ada@example.test');
    expect(mail.subject).toBe('Your Hearth Test email address was changed');
    expect(mail.text).toContain('was changed to m•••@evil.example');
    expect(mail.text).not.toContain('mallory');
    expect(mail.html).not.toContain('mallory');
    expect(mail.text).toContain('https://hearth.example/settings/account');
    expect(mail.text).toContain('tell the administrators');
    expect(mail.text).toContain('When: Tuesday 3 June 2025, 14:03 UTC');
  });

  it('escapes what people chose in the HTML part', () => {
    const mail = securityMail(
      config,
      { ...user, name: '<img src=x onerror=alert(1)>' },
      { kind: 'password-changed' },
      { at, device: 'Firefox & friends' },
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(mail.html).toContain('Firefox &#38; friends');
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>,');
  });
});

describe('sendNotice', () => {
  const message = securityMail(config, user, { kind: 'password-changed' }, { at, device: null });

  it('hands the message to the mailer', () => {
    const sent: MailMessage[] = [];
    const { log } = capturingLogger();
    sendNotice(
      mailerThat((m) => {
        sent.push(m);
        return Promise.resolve();
      }),
      log,
      message,
    );
    expect(sent).toEqual([message]);
  });

  it('logs a rejected send instead of failing the caller', async () => {
    const { log, lines } = capturingLogger();
    expect(() =>
      sendNotice(
        mailerThat(() => Promise.reject(new Error('mail server down'))),
        log,
        message,
      ),
    ).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain(message.subject);
    expect(lines[0]?.err?.message).toBe('mail server down');
  });

  it('logs a mailer that throws before it even starts', async () => {
    const { log, lines } = capturingLogger();
    expect(() =>
      sendNotice(
        mailerThat(() => {
          throw new Error('no transport');
        }),
        log,
        message,
      ),
    ).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]?.err?.message).toBe('no transport');
  });
});
