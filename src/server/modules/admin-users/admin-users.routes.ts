import type { FastifyPluginAsync } from 'fastify';
import { adminUserEndpoints as api } from '../../../shared/contract/endpoints/admin-users.js';
import { serve } from '../../http/serve.js';
import type { UsersAdminService } from './admin-users.service.js';

/** The console's users section (issue: moderation and administration §4, "Users"). */
export const adminUsersRoutes: FastifyPluginAsync<{ usersAdmin: UsersAdminService }> = (
  app,
  { usersAdmin },
) => {
  serve(app, api.listAdminUsers, ({ query }) => usersAdmin.list(query));
  serve(app, api.getAdminUser, async ({ viewer, params }) =>
    usersAdmin.get(await usersAdmin.actor(viewer), params.uid),
  );
  serve(app, api.approveSignup, async ({ viewer, params }) => {
    await usersAdmin.approve(await usersAdmin.actor(viewer), params.uid);
    return null;
  });
  serve(app, api.rejectSignup, async ({ viewer, params, body }) => {
    await usersAdmin.reject(await usersAdmin.actor(viewer), params.uid, body.reason);
    return null;
  });
  serve(app, api.setUserActive, async ({ viewer, params, body }) => {
    await usersAdmin.setActive(
      await usersAdmin.actor(viewer),
      params.uid,
      body.active,
      body.reason,
    );
    return null;
  });
  serve(app, api.setUserRole, async ({ viewer, params, body }) => {
    await usersAdmin.setRole(await usersAdmin.actor(viewer), params.uid, body.role, body.reason);
    return null;
  });
  serve(app, api.revokeUserSessions, async ({ viewer, params }) => {
    await usersAdmin.signOutEverywhere(await usersAdmin.actor(viewer), params.uid);
    return null;
  });
  serve(app, api.sendUserResetLink, async ({ viewer, params }) => {
    await usersAdmin.sendResetLink(await usersAdmin.actor(viewer), params.uid);
    return null;
  });
  serve(app, api.deleteAdminUser, async ({ viewer, params, body }) => {
    await usersAdmin.delete(await usersAdmin.actor(viewer), params.uid, body.reason);
    return null;
  });
  serve(app, api.addModerationNote, async ({ viewer, params, body }) =>
    usersAdmin.addNote(await usersAdmin.actor(viewer), params.uid, body.body),
  );
  return Promise.resolve();
};
