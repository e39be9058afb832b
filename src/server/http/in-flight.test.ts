import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../mail/mailer.js';
import { createTestApp, databaseTargets, newUserInput, send, signUp } from '../test/harness.js';
import { HandlersInFlight } from './in-flight.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open(): void } {
  const resolvers: (() => void)[] = [];
  const opened = new Promise<void>((resolve) => {
    resolvers.push(resolve);
  });
  return {
    opened,
    open() {
      for (const resolve of resolvers) resolve();
    },
  };
}

describe('HandlersInFlight', () => {
  it('settles at once when nothing runs', async () => {
    await expect(new HandlersInFlight().settled(1_000)).resolves.toBe(true);
  });

  it('settles when the last handler ends, and each end counts once', async () => {
    const handlers = new HandlersInFlight();
    const first = handlers.begin();
    const second = handlers.begin();
    let settled: boolean | undefined;
    const waiting = handlers.settled(5_000).then((value) => (settled = value));
    first();
    first();
    await Promise.resolve();
    expect(handlers.running).toBe(1);
    expect(settled).toBeUndefined();
    second();
    await waiting;
    expect(settled).toBe(true);
    expect(handlers.running).toBe(0);
  });

  it('gives up after its time, and a later end still counts', async () => {
    const handlers = new HandlersInFlight();
    const end = handlers.begin();
    await expect(handlers.settled(20)).resolves.toBe(false);
    end();
    expect(handlers.running).toBe(0);
    await expect(handlers.settled(20)).resolves.toBe(true);
  });
});

describe.each(databaseTargets)('shutdown on $name', (target) => {
  it('waits for a handler still running before it closes what the handler uses', async () => {
    const t = await createTestApp(target);
    const state = { closed: false };
    try {
      const { input, cookie } = await signUp(t.app);
      // The email change's handler waits for its mail: held here, it is a handler in flight.
      const entered = gate();
      const mailGate = gate();
      const deliver = t.mail.send.bind(t.mail);
      t.mail.send = async (message: MailMessage) => {
        entered.open();
        await mailGate.opened;
        return deliver(message);
      };
      const newEmail = newUserInput().email;
      const answer = send(
        t.app,
        'POST',
        '/api/account/email',
        { newEmail, password: input.password },
        { cookie },
      );
      await entered.opened;

      const closing = t.close().then(() => {
        state.closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(state.closed).toBe(false);

      mailGate.open();
      const response = await answer;
      expect(response.statusCode, response.body).toBe(202);
      await closing;
      expect(state.closed).toBe(true);
      expect(t.mail.lastTo(newEmail)).toBeDefined();
    } finally {
      if (!state.closed) await t.close();
    }
  });
});
