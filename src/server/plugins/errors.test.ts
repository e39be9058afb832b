import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.js';

/** A driver's error as each database raises it when a row's key to another row finds none. */
const foreignKeyErrors = {
  sqlite: () =>
    Object.assign(new Error('FOREIGN KEY constraint failed'), {
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    }),
  postgres: () =>
    Object.assign(new Error('insert or update on table "comments" violates foreign key'), {
      code: '23503',
    }),
};

/**
 * A write of an account deleted while the request was on its way fails on its key to the account; the
 * request answers 401, as any request of a deleted account does. Any other failure stays a 500.
 */
describe('a write that fails on a foreign key', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function appWhere(deleted: boolean, asked: string[]): Promise<FastifyInstance> {
    const built = Fastify();
    await built.register(errorsPlugin, {
      accountDeleted: (request) => {
        asked.push(request.url);
        return Promise.resolve(deleted);
      },
    });
    built.post('/sqlite', () => Promise.reject(foreignKeyErrors.sqlite()));
    built.post('/postgres', () => Promise.reject(foreignKeyErrors.postgres()));
    built.post('/other', () => Promise.reject(new Error('something else broke')));
    await built.ready();
    return built;
  }

  it.each(['sqlite', 'postgres'])(
    'answers 401 on %s when the account making it is gone',
    async (dialect) => {
      const asked: string[] = [];
      app = await appWhere(true, asked);
      const response = await app.inject({ method: 'POST', url: `/${dialect}` });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'unauthenticated', message: 'Your account no longer exists.' },
      });
      expect(asked).toEqual([`/${dialect}`]);
    },
  );

  it('stays a 500 when the account still exists', async () => {
    app = await appWhere(false, []);
    const response = await app.inject({ method: 'POST', url: '/sqlite' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: { code: 'internal' } });
  });

  it('asks nothing of another failure, which stays a 500', async () => {
    const asked: string[] = [];
    app = await appWhere(true, asked);
    const response = await app.inject({ method: 'POST', url: '/other' });
    expect(response.statusCode).toBe(500);
    expect(asked).toEqual([]);
  });

  it('stays a 500 when asking whether the account exists fails too', async () => {
    app = Fastify();
    await app.register(errorsPlugin, {
      accountDeleted: () => Promise.reject(new Error('the database is gone as well')),
    });
    app.post('/sqlite', () => Promise.reject(foreignKeyErrors.sqlite()));
    const response = await app.inject({ method: 'POST', url: '/sqlite' });
    expect(response.statusCode).toBe(500);
  });
});
