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

/** The Content-Security-Policy: only this origin, plus the media store's when media is served from one. */
export function contentSecurityPolicy(mediaOrigin: string | null, https: boolean): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:', 'blob:', ...(mediaOrigin ? [mediaOrigin] : [])]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['media-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
    ['manifest-src', ["'self'"]],
    ['worker-src', ["'self'"]],
    ...(https ? [['upgrade-insecure-requests', []] as [string, string[]]] : []),
  ];
  return directives.map(([name, values]) => [name, ...values].join(' ')).join(';');
}

/**
 * Every security header a response carries, computed once: they depend only on the configuration, so
 * building them per request (as a general-purpose middleware does, re-reading the CSP each time) is waste on
 * the hottest path there is.
 */
export function securityHeaders(
  mediaOrigin: string | null,
  https: boolean,
): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(mediaOrigin, https),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    // Turns off the legacy XSS auditor, which could itself be abused to leak page content.
    'x-xss-protection': '0',
  };
}

/** Security headers on every response and the Origin check on every state-changing API request. */
export const securityPlugin = fp(
  (
    app: FastifyInstance,
    { config, mediaOrigin }: { config: Config; mediaOrigin: string | null },
    done: () => void,
  ) => {
    const headers = securityHeaders(mediaOrigin, config.secureCookies);
    app.addHook('onRequest', (request, reply, next) => {
      reply.headers(headers);
      if (
        safeMethods.has(request.method) ||
        !request.url.startsWith('/api/') ||
        request.routeOptions.config.anyOrigin === true
      ) {
        next();
        return;
      }
      try {
        assertSameOrigin(request, config);
        next();
      } catch (error) {
        next(error as DomainError);
      }
    });
    done();
  },
  { name: 'security' },
);
