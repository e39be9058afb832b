import type { FastifyPluginAsync } from 'fastify';
import { accountEndpoints as api } from '../../../shared/contract/endpoints/account.js';
import { serve } from '../../http/serve.js';
import { webHeaders } from '../../plugins/viewer.js';
import type { AccountService } from './account.service.js';

/**
 * Account settings. Changing the email is an account change like any other, so inactive users cannot; the
 * password, sessions and deletion are about their safety and privacy, so they can (ADR 0005).
 */
export const accountRoutes: FastifyPluginAsync<{ account: AccountService }> = (
  app,
  { account },
) => {
  serve(app, api.requestEmailChange, async ({ viewer, body }) => {
    await account.requestEmailChange(viewer, body);
    return {
      message: `We sent a confirmation link to ${body.newEmail}. Your address changes when you follow it.`,
    };
  });

  serve(app, api.confirmEmailChange, async ({ body }) => ({
    user: await account.confirmEmailChange(body.token),
  }));

  serve(app, api.changePassword, async ({ viewer, body, request, reply }) => {
    const cookies = await account.changePassword(viewer, body, webHeaders(request));
    if (cookies.length > 0) void reply.header('set-cookie', cookies);
    return { ok: true as const };
  });

  serve(app, api.listSessions, async ({ viewer, reply }) => {
    void reply.header('cache-control', 'no-store');
    return { sessions: await account.listSessions(viewer) };
  });

  serve(app, api.revokeSession, async ({ viewer, params }) => {
    await account.revokeSession(viewer, params.id);
    return { ok: true as const };
  });

  serve(app, api.deleteAccount, async ({ viewer, body, reply }) => {
    await account.deleteAccount(viewer, body.password);
    void reply.header('set-cookie', await account.expiredSessionCookies());
    return { ok: true as const };
  });
  return Promise.resolve();
};
