import { sql, type Kysely } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { instanceSchema, legalDocumentSchema } from '../../../shared/schemas/instance.js';
import type { Database } from '../../db/schema.js';
import type { InstanceService } from './instance.service.js';

const statusSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

/** Instance facts, legal documents, and the health and readiness probes. */
export const instanceRoutes: FastifyPluginAsyncZod<{
  instance: InstanceService;
  db: Kysely<Database>;
}> = (app, { instance, db }) => {
  app.get('/api/health', { schema: { response: { 200: statusSchema } } }, () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/api/ready',
    { schema: { response: { 200: statusSchema, 503: statusSchema } } },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );

  app.get('/api/instance', { schema: { response: { 200: instanceSchema } } }, () =>
    instance.describe(),
  );

  app.get(
    '/api/legal/:name',
    {
      schema: {
        params: z.object({
          name: z.enum(['tos', 'privacy'], { error: 'Legal documents are tos and privacy.' }),
        }),
        response: { 200: legalDocumentSchema, 400: errorBodySchema },
      },
    },
    (request) => instance.legalDocument(request.params.name),
  );
  return Promise.resolve();
};
