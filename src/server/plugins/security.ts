import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint takes requests from any origin (`anyOrigin` in the contract). */
    anyOrigin?: boolean;
  }
}

/** Rejects a request whose Origin is not this instance's (CSRF defence, issue: accounts). */
export function assertSameOrigin(request: FastifyRequest, config: Config): void {
  const origin = request.headers.origin;
  if (origin === config.publicOrigin) return;
  throw new DomainError(
    403,
    'origin_mismatch',
    origin
      ? 'This request came from another site and was refused.'
      : 'This request is missing its Origin header and was refused.',
  );
}

/** Security headers on every response and the Origin check on every state-changing API request. */
export const securityPlugin = fp(
  async (
    app: FastifyInstance,
    { config, mediaOrigin }: { config: Config; mediaOrigin: string | null },
  ) => {
    const https = config.secureCookies;
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(mediaOrigin ? [mediaOrigin] : [])],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          mediaSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 63_072_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'same-origin' },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      xFrameOptions: { action: 'deny' },
    });
    app.addHook('onRequest', (request, _reply, done) => {
      if (
        safeMethods.has(request.method) ||
        !request.url.startsWith('/api/') ||
        request.routeOptions.config.anyOrigin === true
      ) {
        done();
        return;
      }
      try {
        assertSameOrigin(request, config);
        done();
      } catch (error) {
        done(error as DomainError);
      }
    });
  },
  { name: 'security' },
);
