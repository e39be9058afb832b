import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { rateLimits } from '../../../shared/limits.js';
import {
  messageResponseSchema,
  okResponseSchema,
  requestPasswordResetBodySchema,
  resetPasswordBodySchema,
  sessionResponseSchema,
  signInBodySchema,
  signUpBodySchema,
} from '../../../shared/schemas/auth.js';
import { meSchema } from '../../../shared/schemas/user.js';
import { clientAddress } from '../../plugins/rate-limit.js';
import { webHeaders } from '../../plugins/viewer.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { AuthService } from './auth.service.js';

const userResponseSchema = z.object({ user: meSchema });
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

function withCookies(reply: FastifyReply, cookies: string[]) {
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  // Responses that carry or depend on a session are never cached.
  void reply.header('cache-control', 'no-store');
  return reply;
}

/** Accounts: sign-up, sign-in, sign-out, session and password reset (issue: accounts). */
export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  users: UsersRepository;
}> = (app, { auth, users }) => {
  const accountKeys = new WeakMap<FastifyRequest, Promise<string>>();
  /** The account a sign-in names, whichever name it is given by; looked up once per request. */
  const accountKey = (request: FastifyRequest): Promise<string> => {
    let key = accountKeys.get(request);
    if (!key) {
      const identifier = (request.body as { identifier?: unknown }).identifier;
      const value = typeof identifier === 'string' ? identifier.trim().toLowerCase() : '';
      key = (value.includes('@') ? users.findByEmail(value) : users.findByUsername(value)).then(
        (row) => (row ? `uid:${row.id}` : `name:${value}`),
      );
      accountKeys.set(request, key);
    }
    return key;
  };

  app.post(
    '/api/auth/sign-up',
    {
      schema: { body: signUpBodySchema, response: { 201: userResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'sign-up', ...rateLimits.signUp })],
    },
    async (request, reply) => {
      const { user, cookies } = await auth.signUp(request.body, webHeaders(request));
      return withCookies(reply, cookies).status(201).send({ user });
    },
  );

  app.post(
    '/api/auth/sign-in',
    {
      schema: { body: signInBodySchema, response: { 200: userResponseSchema, ...errors } },
      // Per address first, then per account and address, then per account: a request refused by an earlier
      // rule does not count against a later one, so guesses from elsewhere barely touch the owner's budget.
      preHandler: [
        app.limit({ name: 'sign-in-ip', ...rateLimits.signIn }),
        app.limit({
          name: 'sign-in-account-ip',
          ...rateLimits.signInPerAccountAddress,
          key: async (request) => `${await accountKey(request)}:ip:${clientAddress(request)}`,
        }),
        app.limit({ name: 'sign-in-account', ...rateLimits.signInPerAccount, key: accountKey }),
      ],
    },
    async (request, reply) => {
      const { user, cookies } = await auth.signIn(request.body, webHeaders(request));
      return withCookies(reply, cookies).send({ user });
    },
  );

  app.post(
    '/api/auth/sign-out',
    { schema: { response: { 200: okResponseSchema, 403: errorBodySchema } } },
    async (request, reply) => {
      const cookies = await auth.signOut(webHeaders(request));
      return withCookies(reply, cookies).send({ ok: true as const });
    },
  );

  app.get(
    '/api/auth/session',
    { schema: { response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const { user, cookies } = await auth.session(webHeaders(request));
      return withCookies(reply, cookies).send({ user });
    },
  );

  app.post(
    '/api/auth/request-password-reset',
    {
      schema: {
        body: requestPasswordResetBodySchema,
        response: { 202: messageResponseSchema, ...errors },
      },
      // Every rule runs before the address is looked up, so a 429 says nothing about whether it has an
      // account; the instance-wide cap comes last so that requests refused per client do not spend it.
      preHandler: [
        app.limit({ name: 'reset-ip', ...rateLimits.passwordResetPerIp }),
        app.limit({
          name: 'reset-address',
          ...rateLimits.passwordReset,
          key: (request) => {
            const email = (request.body as { email?: unknown }).email;
            return typeof email === 'string' ? email.trim().toLowerCase() : '';
          },
        }),
        app.limit({
          name: 'reset-instance',
          ...rateLimits.passwordResetPerInstance,
          key: () => 'all',
        }),
      ],
    },
    async (request, reply) => {
      await auth.requestPasswordReset(request.body);
      return reply.status(202).send({
        message:
          'If an account uses that address, a reset link is on its way. It works once, for one hour.',
      });
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: { body: resetPasswordBodySchema, response: { 200: okResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'reset-token-ip', ...rateLimits.signIn })],
    },
    async (request, reply) => {
      await auth.resetPassword(request.body);
      return reply.send({ ok: true as const });
    },
  );
  return Promise.resolve();
};
