import type { FastifyPluginAsync } from 'fastify';
import { adminInstanceEndpoints as api } from '../../../shared/contract/endpoints/admin-instance.js';
import { serve } from '../../http/serve.js';
import type { AuditLogService } from './audit-log.service.js';

/** The audit log for staff, and the public moderation log (ADR 0021, ADR 0023). */
export const auditLogRoutes: FastifyPluginAsync<{ auditLog: AuditLogService }> = (
  app,
  { auditLog },
) => {
  serve(app, api.listAuditLog, ({ query }) => auditLog.list(query));
  serve(app, api.listPublicModerationLog, ({ query }) => auditLog.listPublic(query));
  return Promise.resolve();
};
