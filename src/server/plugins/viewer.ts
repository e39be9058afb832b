import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '../../shared/schemas/user.js';
import { AccountInactive, Unauthenticated } from '../errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { UsersRepository } from '../modules/users/users.repository.js';

/** Who is making a request. */
export interface Viewer {
  uid: string;
  sessionId: string;
  role: Role;
  active: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, looked up once per request and only when asked for. */
    viewer(): Promise<Viewer | null>;
  }
}

/** Header through which Better Auth learns the client IP that Fastify resolved (TRUST_PROXY aware). */
export const clientIpHeader = 'x-hearth-client-ip';

/** Converts Node's request headers to the Web Headers Better Auth reads. */
export function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === clientIpHeader) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  headers.set(clientIpHeader, request.ip);
  return headers;
}

/** The signed-in viewer, or a 401. */
export async function requireViewer(request: FastifyRequest): Promise<Viewer> {
  const viewer = await request.viewer();
  if (!viewer) throw new Unauthenticated();
  return viewer;
}

/** spec §4, §6: only active users change anything. */
export async function requireActiveViewer(request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(request);
  if (!viewer.active) throw new AccountInactive();
  return viewer;
}

const cache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

export const viewerPlugin = fp(
  (
    app: FastifyInstance,
    { auth, users }: { auth: AuthService; users: UsersRepository },
    done: () => void,
  ) => {
    const resolve = async (request: FastifyRequest): Promise<Viewer | null> => {
      // No session cookie, no lookup: anonymous reads stay cheap.
      if (!request.headers.cookie?.includes('.session_token=')) return null;
      const identity = await auth.sessionIdentity(webHeaders(request));
      if (!identity) return null;
      const row = await users.findById(identity.uid);
      if (!row) return null;
      return {
        uid: row.id,
        sessionId: identity.sessionId,
        role: row.role === 'admin' ? 'admin' : 'user',
        active: row.active === null ? true : Boolean(row.active),
      };
    };
    app.decorateRequest('viewer', function (this: FastifyRequest) {
      let pending = cache.get(this);
      if (!pending) {
        pending = resolve(this);
        cache.set(this, pending);
      }
      return pending;
    });
    done();
  },
  { name: 'viewer' },
);
