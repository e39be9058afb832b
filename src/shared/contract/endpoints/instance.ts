import { z } from 'zod';
import { instanceSchema, legalDocumentSchema } from '../../schemas/instance.js';
import { defineEndpoint } from '../endpoint.js';

const dependencyStateSchema = z.enum(['ok', 'unavailable']);

/** GET /api/health. */
export const healthSchema = z.object({ status: dependencyStateSchema });

/** GET /api/ready, whether it answers 200 or 503. */
export const readinessSchema = healthSchema.extend({
  /** Each dependency the instance needs, by name, so an operator sees which one is missing. */
  checks: z.record(z.string(), dependencyStateSchema),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** The legal documents an instance publishes, shown at /tos and /privacy. */
export const legalParamsSchema = z.object({
  name: z.enum(['tos', 'privacy'], { error: 'Legal documents are tos and privacy.' }),
});

/** Facts about this installation, its legal documents, and the operators' probes. */
export const instanceEndpoints = {
  getHealth: defineEndpoint({
    id: 'getHealth',
    budget: false,
    method: 'GET',
    path: '/api/health',
    tag: 'Instance',
    summary: 'Liveness probe',
    description:
      'For operators: 200 while the process serves requests, whatever its dependencies do. Outside the API request budget.',
    access: 'public',
    status: 200,
    response: healthSchema,
  }),
  getReadiness: defineEndpoint({
    id: 'getReadiness',
    budget: false,
    method: 'GET',
    path: '/api/ready',
    tag: 'Instance',
    summary: 'Readiness probe',
    description:
      'For operators and load balancers: checks each dependency (the database, and Redis when configured), each within 2 seconds. 200 with `status: "ok"` when all answer; otherwise **503 with the same body**, `status: "unavailable"` and the missing ones marked, so that traffic goes to an instance that has them all. Never cached; outside the API request budget.',
    access: 'public',
    status: 200,
    response: readinessSchema,
    otherResponses: { 503: readinessSchema },
  }),
  getInstance: defineEndpoint({
    id: 'getInstance',
    method: 'GET',
    path: '/api/instance',
    tag: 'Instance',
    summary: 'About this instance',
    description: 'Its name, contact address, public address and whether it takes sign-ups.',
    access: 'public',
    status: 200,
    response: instanceSchema,
  }),
  getLegalDocument: defineEndpoint({
    id: 'getLegalDocument',
    method: 'GET',
    path: '/api/legal/{name}',
    tag: 'Instance',
    summary: 'The terms of service or the privacy policy',
    description:
      "The operator's own Markdown when they provide one (`updatedAt` is then its date), else the default text filled in with this instance's name, address and contact.",
    access: 'public',
    params: legalParamsSchema,
    status: 200,
    response: legalDocumentSchema,
  }),
} as const;
