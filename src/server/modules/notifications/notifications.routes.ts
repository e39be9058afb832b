import type { FastifyPluginAsync } from 'fastify';
import { notificationEndpoints as api } from '../../../shared/contract/endpoints/notifications.js';
import { serve } from '../../http/serve.js';
import type { NotificationsService } from './notifications.service.js';

type Options = { notifications: NotificationsService };

/**
 * Mail unsubscribe links, in a context of their own: only here is a form body read. RFC 8058's one-click
 * POST sends `List-Unsubscribe=One-Click` as `application/x-www-form-urlencoded`; the body says nothing the
 * token does not, so it is read (bounded like any body) and ignored.
 */
const unsubscribeRoutes: FastifyPluginAsync<Options> = (app, { notifications }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  // A POST with no body at all is as good as an empty object: the token is the whole request. (The
  // validator is handed null for a missing body, which an optional schema refuses.)
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === null || request.body === undefined) request.body = {};
    done();
  });
  serve(app, api.getUnsubscribe, ({ params }) => notifications.unsubscribeState(params.token));
  serve(app, api.unsubscribe, ({ params }) => notifications.unsubscribe(params.token));
  return Promise.resolve();
};

/** The viewer's notifications, their unread count, settings, and unsubscribe links (issue: notifications). */
export const notificationsRoutes: FastifyPluginAsync<Options> = async (app, { notifications }) => {
  serve(app, api.getNotifications, ({ viewer, query }) => notifications.list(viewer, query));
  serve(app, api.getUnreadNotifications, ({ viewer }) => notifications.unreadState(viewer.uid));
  serve(app, api.markNotificationsRead, ({ viewer, body }) =>
    notifications.markRead(viewer, body.upTo),
  );
  serve(app, api.getNotificationSettings, ({ viewer }) => notifications.settings(viewer));
  serve(app, api.updateNotificationSettings, ({ viewer, body }) =>
    notifications.updateSettings(viewer, body),
  );
  await app.register(unsubscribeRoutes, { notifications });
};
