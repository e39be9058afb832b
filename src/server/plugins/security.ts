import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint takes requests from any origin (`anyOrigin` in the contract). */
    anyOrigin?: boolean;
    /** A contract endpoint (`serve`): it answers JSON, never a page, and carries `apiSecurityHeaders`. */
    contractEndpoint?: boolean;
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

const hstsValue = 'max-age=63072000; includeSubDomains';

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
    ...(https ? { 'strict-transport-security': hstsValue } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    // Turns off the legacy XSS auditor, which could itself be abused to leak page content.
    'x-xss-protection': '0',
  };
}

/**
 * The security headers of a contract endpoint's answer, computed once. It is JSON in the one error shape or
 * a resource, never a page, so it carries what guards data rather than a document (as OWASP's REST
 * guidance lists): it is not sniffed into something else, not framed, not read by another site's page
 * (CORP), nothing runs or loads in it should it be opened on its own, and HTTPS is kept (ADR 0047). The
 * headers that direct what a page does (its script and style sources, its opener, its prefetching, its
 * referrer) have nothing to act on and are left to pages.
 */
export function apiSecurityHeaders(https: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': hstsValue } : {}),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/**
 * Security headers on every response (a contract endpoint's set, or a page's) and the Origin check on every
 * state-changing API request.
 */
export const securityPlugin = fp(
  (
    app: FastifyInstance,
    { config, mediaOrigin }: { config: Config; mediaOrigin: string | null },
    done: () => void,
  ) => {
    const pageHeaders = securityHeaders(mediaOrigin, config.secureCookies);
    const apiHeaders = apiSecurityHeaders(config.secureCookies);
    app.addHook('onRequest', (request, reply, next) => {
      const route = request.routeOptions.config;
      reply.headers(route.contractEndpoint === true ? apiHeaders : pageHeaders);
      if (
        safeMethods.has(request.method) ||
        !request.url.startsWith('/api/') ||
        route.anyOrigin === true
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
