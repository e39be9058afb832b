import { AsyncLocalStorage } from 'node:async_hooks';
import {
  getCurrentAuthContextAsyncLocalStorage,
  getCurrentDBAdapterAsyncLocalStorage,
  getRequestStateAsyncLocalStorage,
} from '@better-auth/core/context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, signUp, type TestApp } from '../test/harness.js';
import { openScopedContexts, scoped } from './async-context.js';
import { signUpContext } from './auth.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A promise and the function that resolves it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('scoped async-local storages', () => {
  it('read their store across awaits while the context is open', async () => {
    const storage = scoped(new AsyncLocalStorage<string>());
    const result = await storage.run('a', async () => {
      await tick();
      await Promise.resolve();
      return storage.getStore();
    });
    expect(result).toBe('a');
    expect(openScopedContexts()).toBe(0);
  });

  it('stay on while any scoped context is open, in this storage or another', async () => {
    const first = scoped(new AsyncLocalStorage<string>());
    const second = scoped(new AsyncLocalStorage<string>());
    const held = gate();
    const long = first.run('long', async () => {
      await held.opened;
      await tick();
      return first.getStore();
    });
    const short = second.run('short', async () => {
      await tick();
      return second.getStore();
    });
    expect(await short).toBe('short');
    // The short context closed while the long one waited: it must not have switched the storages off.
    await tick();
    expect(openScopedContexts()).toBe(1);
    held.open();
    expect(await long).toBe('long');
    expect(openScopedContexts()).toBe(0);
  });

  it('close a context whose callback throws or whose promise rejects', async () => {
    const storage = scoped(new AsyncLocalStorage<string>());
    expect(() =>
      storage.run('sync', () => {
        throw new Error('thrown');
      }),
    ).toThrow('thrown');
    expect(openScopedContexts()).toBe(0);
    await expect(
      storage.run('async', async () => {
        await tick();
        throw new Error('rejected');
      }),
    ).rejects.toThrow('rejected');
    expect(openScopedContexts()).toBe(0);
    // A synchronous callback's context closes when it returns.
    expect(storage.run('plain', () => storage.getStore())).toBe('plain');
    expect(openScopedContexts()).toBe(0);
  });

  it('switch the hook off once the last context closes: a promise left behind reads nothing', async () => {
    const plain = new AsyncLocalStorage<string>();
    const storage = scoped(new AsyncLocalStorage<string>());
    const leftBehind = (which: AsyncLocalStorage<string>) => {
      const release = gate();
      let late!: Promise<string | undefined>;
      const settled = which.run('kept', () => {
        late = (async () => {
          await release.opened;
          return which.getStore();
        })();
        return Promise.resolve();
      });
      return { settled, release, late: () => late };
    };

    // A plain storage keeps its hook: the chain it left behind still reads its store.
    const fromPlain = leftBehind(plain);
    await fromPlain.settled;
    fromPlain.release.open();
    expect(await fromPlain.late()).toBe('kept');
    plain.disable();

    // A scoped one switched everything off when its context closed.
    const fromScoped = leftBehind(storage);
    await fromScoped.settled;
    await tick();
    expect(openScopedContexts()).toBe(0);
    fromScoped.release.open();
    expect(await fromScoped.late()).toBeUndefined();
    // And the next run turns it on again.
    expect(
      await storage.run('again', async () => {
        await tick();
        return storage.getStore();
      }),
    ).toBe('again');
  });

  it('refuse enterWith, which opens a context with no end', () => {
    const storage = scoped(new AsyncLocalStorage<string>());
    expect(() => storage.enterWith('forever')).toThrow(/run\(\) alone/);
  });
});

describe.each(databaseTargets)('Better Auth contexts on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('run in scoped storages, all closed once each request is answered', async () => {
    const storages: AsyncLocalStorage<unknown>[] = [
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      await getCurrentAuthContextAsyncLocalStorage(),
      await getRequestStateAsyncLocalStorage(),
      await getCurrentDBAdapterAsyncLocalStorage(),
      signUpContext,
    ];
    for (const storage of storages) {
      // Scoped: its run is the counting one, not AsyncLocalStorage's own.
      expect(Object.hasOwn(storage, 'run')).toBe(true);
    }

    // A sign-up runs Better Auth's endpoint, request and transaction contexts and the sign-up context.
    const { cookie, input } = await signUp(t.app);
    expect(openScopedContexts()).toBe(0);
    const signedOut = await send(t.app, 'POST', '/api/auth/sign-out', {}, { cookie });
    expect(signedOut.statusCode).toBe(200);
    const signedIn = await send(t.app, 'POST', '/api/auth/sign-in', {
      identifier: input.username,
      password: input.password,
    });
    expect(signedIn.statusCode).toBe(200);
    expect(openScopedContexts()).toBe(0);
    // Node 20 keeps an `enabled` flag per storage: none is left on to hold the promise hook.
    for (const storage of storages) {
      const flag = (storage as unknown as { enabled?: boolean }).enabled;
      if (flag !== undefined) expect(flag).toBe(false);
    }
  });
});
