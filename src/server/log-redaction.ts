import type { FastifyRequest } from 'fastify';

/** Query parameters that carry one-time secrets: `?token=` (password reset), `?emailToken=` (new address). */
const secretParameter = /([?&][^=&#]*token[^=&#]*=)[^&#]*/gi;

/** The URL with the values of token-bearing query parameters replaced, fit for a log line. */
export function redactUrl(url: string): string {
  return url.replace(secretParameter, '$1[redacted]');
}

/**
 * Fastify's request serializer, except that the URL is redacted: following a mailed link loads a page
 * whose address holds the token, and logs must never hold one.
 */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
