import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { rateLimits } from '../../../shared/limits.js';
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  confirmEmailBodySchema,
  deleteAccountBodySchema,
  meResponseSchema,
  sessionListSchema,
  sessionParamsSchema,
} from '../../../shared/schemas/account.js';
import { messageResponseSchema, okResponseSchema } from '../../../shared/schemas/auth.js';
import { requireActiveViewer, requireViewer, webHeaders } from '../../plugins/viewer.js';
import type { AccountService } from './account.service.js';
import { perAccount } from '../../plugins/rate-limit.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/**
 * Account settings. Changing the email is an account change like any other, so inactive users cannot; the
 * password, sessions and deletion are about their safety and privacy, so they can (ADR 0004).
 */
export const accountRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = (
  app,
  { account },
) => {
  const accountLimit = app.limit({
    name: 'account-change',
    ...rateLimits.accountChange,
    key: perAccount,
  });

  app.post(
    '/api/account/email',
    {
      schema: { body: changeEmailBodySchema, response: { 202: messageResponseSchema, ...errors } },
      preHandler: [accountLimit],
    },
    async (request, reply) => {
      const viewer = await requireActiveViewer(request);
      await account.requestEmailChange(viewer, request.body);
      return reply.status(202).send({
        message: `We sent a confirmation link to ${request.body.newEmail}. Your address changes when you follow it.`,
      });
    },
  );

  app.post(
    '/api/account/email/confirm',
    {
      schema: { body: confirmEmailBodySchema, response: { 200: meResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'email-confirm', ...rateLimits.signIn })],
    },
    async (request) => ({ user: await account.confirmEmailChange(request.body.token) }),
  );

  app.post(
    '/api/account/password',
    {
      schema: { body: changePasswordBodySchema, response: { 200: okResponseSchema, ...errors } },
      preHandler: [accountLimit],
    },
    async (request, reply) => {
      const viewer = await requireViewer(request);
      const cookies = await account.changePassword(viewer, request.body, webHeaders(request));
      if (cookies.length > 0) void reply.header('set-cookie', cookies);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/account/sessions',
    { schema: { response: { 200: sessionListSchema, 401: errorBodySchema } } },
    async (request, reply) => {
      const viewer = await requireViewer(request);
      void reply.header('cache-control', 'no-store');
      return { sessions: await account.listSessions(viewer) };
    },
  );

  app.delete(
    '/api/account/sessions/:id',
    { schema: { params: sessionParamsSchema, response: { 200: okResponseSchema, ...errors } } },
    async (request) => {
      const viewer = await requireViewer(request);
      await account.revokeSession(viewer, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/account/delete',
    {
      schema: {
        body: deleteAccountBodySchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
      preHandler: [accountLimit],
    },
    async (request, reply) => {
      const viewer = await requireViewer(request);
      await account.deleteAccount(viewer, request.body.password);
      void reply.header('set-cookie', await account.expiredSessionCookies());
      return { ok: true as const };
    },
  );
  return Promise.resolve();
};
