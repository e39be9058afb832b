import type { FastifyPluginAsync } from 'fastify';
import { adminInstanceEndpoints as api } from '../../../shared/contract/endpoints/admin-instance.js';
import { serve } from '../../http/serve.js';
import type { InstanceAdminService } from './instance-admin.service.js';

/** The public rules, and the instance's settings and rules in the console (ADR 0023). */
export const instanceAdminRoutes: FastifyPluginAsync<{ instanceAdmin: InstanceAdminService }> = (
  app,
  { instanceAdmin },
) => {
  serve(app, api.listRules, () => instanceAdmin.listRules());
  serve(app, api.getInstanceSettings, () => instanceAdmin.current());
  serve(app, api.updateInstanceSettings, ({ viewer, body }) =>
    instanceAdmin.updateSettings(viewer, body),
  );
  serve(app, api.createRule, ({ viewer, body }) => instanceAdmin.createRule(viewer, body));
  serve(app, api.updateRule, ({ viewer, params, body }) =>
    instanceAdmin.updateRule(viewer, params.ruleId, body),
  );
  serve(app, api.deleteRule, ({ viewer, params }) =>
    instanceAdmin.deleteRule(viewer, params.ruleId),
  );
  serve(app, api.reorderRules, ({ viewer, body }) => instanceAdmin.reorderRules(viewer, body.ids));
  return Promise.resolve();
};
