import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { authEndpoints as api } from '../../../shared/contract/endpoints/auth.js';
import { serve } from '../../http/serve.js';
import { webHeaders } from '../../plugins/viewer.js';
import type { AuthService } from './auth.service.js';

/** Passes Better Auth's cookies on; answers that carry or depend on a session are never cached. */
function withCookies(reply: FastifyReply, cookies: string[]): void {
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  void reply.header('cache-control', 'no-store');
}

/** Accounts: sign-up, sign-in, sign-out, session and password reset (issue: accounts). */
export const authRoutes: FastifyPluginAsync<{ auth: AuthService }> = (app, { auth }) => {
  serve(app, api.signUp, async ({ body, request, reply }) => {
    const { user, cookies } = await auth.signUp(body, webHeaders(request));
    // Only accounts actually created count against the address's daily allowance.
    await app.accountCreated(request);
    withCookies(reply, cookies);
    return { user };
  });

  serve(app, api.signIn, async ({ body, request, reply }) => {
    const { user, cookies } = await auth.signIn(body, webHeaders(request));
    withCookies(reply, cookies);
    return { user };
  });

  serve(app, api.signOut, async ({ request, reply }) => {
    withCookies(reply, await auth.signOut(webHeaders(request)));
    return { ok: true as const };
  });

  serve(app, api.getSession, async ({ request, reply }) => {
    const { user, cookies } = await auth.session(webHeaders(request));
    withCookies(reply, cookies);
    return { user };
  });

  serve(app, api.requestPasswordReset, async ({ body }) => {
    await auth.requestPasswordReset(body);
    return {
      message:
        'If an account uses that address, a reset link is on its way. It works once, for one hour.',
    };
  });

  serve(app, api.resetPassword, async ({ body, request }) => {
    await auth.resetPassword(body, webHeaders(request));
    return { ok: true as const };
  });
  return Promise.resolve();
};
