import type { FastifyPluginAsync } from 'fastify';
import { moderationEndpoints as api } from '../../../shared/contract/endpoints/moderation.js';
import { serve } from '../../http/serve.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { ModerationActor, ModerationService } from './moderation.service.js';

const actorOf = (viewer: Viewer): ModerationActor => ({ uid: viewer.uid, role: viewer.role });

/** Reports, the reports queue, moderators' actions and appeals (ADR 0021). */
export const moderationRoutes: FastifyPluginAsync<{ moderation: ModerationService }> = (
  app,
  { moderation },
) => {
  serve(app, api.createReport, ({ viewer, body }) => moderation.createReport(viewer, body));
  serve(app, api.listMyReports, ({ viewer, query }) => moderation.myReports(viewer, query));
  serve(app, api.listReportGroups, ({ query }) => moderation.queue(query));
  serve(app, api.resolveReports, ({ viewer, body }) => moderation.resolve(actorOf(viewer), body));
  serve(app, api.removePost, ({ viewer, params, body }) =>
    moderation.removeContent(actorOf(viewer), 'post', params.postId, body.reason),
  );
  serve(app, api.restorePost, ({ viewer, params, body }) =>
    moderation.restoreContent(actorOf(viewer), 'post', params.postId, body.reason),
  );
  serve(app, api.removeComment, ({ viewer, params, body }) =>
    moderation.removeContent(actorOf(viewer), 'comment', params.commentId, body.reason),
  );
  serve(app, api.restoreComment, ({ viewer, params, body }) =>
    moderation.restoreContent(actorOf(viewer), 'comment', params.commentId, body.reason),
  );
  serve(app, api.warnUser, ({ viewer, params, body }) =>
    moderation.warn(actorOf(viewer), params.uid, body.reason),
  );
  serve(app, api.suspendUser, ({ viewer, params, body }) =>
    moderation.suspend(actorOf(viewer), params.uid, body.reason, body.duration),
  );
  serve(app, api.liftSuspension, ({ viewer, params, body }) =>
    moderation.lift(actorOf(viewer), params.uid, body.reason),
  );
  serve(app, api.getMySuspension, ({ viewer }) => moderation.mySuspension(viewer));
  serve(app, api.appealSuspension, ({ viewer, body }) => moderation.appeal(viewer, body.text));
  serve(app, api.listAppeals, ({ query }) => moderation.appeals(query));
  serve(app, api.decideAppeal, ({ viewer, params, body }) =>
    moderation.decideAppeal(actorOf(viewer), params.appealId, body),
  );
  serve(app, api.getModerationState, () => moderation.state());
  return Promise.resolve();
};
