import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isSuspended } from '../../shared/schemas/user.js';
import { isStaff, toRole, type Role } from '../../shared/roles.js';
import type { SessionCache } from '../auth/session-cache.js';
import type { Standing } from '../auth/standing.js';
import { AccountInactive, AccountSuspended, Forbidden, Unauthenticated } from '../errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';

/** Who is making a request. */
export interface Viewer {
  uid: string;
  sessionId: string;
  role: Role;
  active: boolean;
  /** Suspended by moderators (ADR 0021): reads, appeals and manages the account, changes nothing else. */
  suspended: boolean;
  /** When the suspension ends; null when indefinite or not suspended. */
  suspendedUntil: Date | null;
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

/** spec §4, §6: only active users change anything; nor do suspended ones (ADR 0021). */
export async function requireActiveViewer(request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(request);
  assertMayWrite(viewer);
  return viewer;
}

/**
 * An active moderator or administrator (`moderator`), or an administrator alone (`admin`), or a 403. The
 * console's gate; whether they may act on a given account is the service's to decide (ADR 0021).
 */
export async function requireStaffViewer(
  request: FastifyRequest,
  access: 'moderator' | 'admin',
): Promise<Viewer> {
  const viewer = await requireActiveViewer(request);
  if (access === 'admin' ? viewer.role !== 'admin' : !isStaff(viewer.role)) {
    throw new Forbidden(
      access === 'admin'
        ? 'Only administrators can do that.'
        : 'Only moderators and administrators can do that.',
    );
  }
  return viewer;
}

/** The one check that a viewer may change what others see: active and not suspended. */
export function assertMayWrite(viewer: Viewer): void {
  if (!viewer.active) throw new AccountInactive();
  if (viewer.suspended) throw new AccountSuspended(viewer.suspendedUntil);
}

/**
 * The raw value of the one cookie called `name`, or null when there is none or several. With several, the
 * auth library might validate another one than the cache would be keyed by, so such requests skip the cache.
 */
export function singleCookie(header: string, name: string): string | null {
  let found: string | null = null;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    if (found !== null) return null;
    found = pair.slice(equals + 1).trim();
  }
  return found || null;
}

const perRequest = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

export const viewerPlugin = fp(
  (
    app: FastifyInstance,
    {
      auth,
      users,
      sessions,
      sessionCookie,
      activity,
    }: {
      auth: AuthService;
      /** The user's standing, read on every signed-in request (`StandingReader`). */
      users: { findStanding(uid: string): Promise<Standing | undefined> };
      sessions: SessionCache;
      /** Name of the session token cookie. */
      sessionCookie: string;
      /** Told of every signed-in request (the dashboard's active users); it never throws. */
      activity?: { seen(uid: string): void };
    },
    done: () => void,
  ) => {
    const resolve = async (request: FastifyRequest): Promise<Viewer | null> => {
      const header = request.headers.cookie;
      // No session cookie, no lookup: anonymous reads stay cheap.
      if (!header?.includes('.session_token=')) return null;
      const lookup = () => auth.sessionIdentity(webHeaders(request));
      const token = singleCookie(header, sessionCookie);
      const identity = token ? await sessions.resolve(token, lookup) : await lookup();
      if (!identity) return null;
      // Uncached on purpose: a change of role or a deactivation applies to the very next request.
      const row = await users.findStanding(identity.uid);
      if (!row) return null;
      activity?.seen(row.id);
      const suspended = isSuspended(row.suspendedAt, row.suspendedUntil);
      return {
        uid: row.id,
        sessionId: identity.sessionId,
        role: toRole(row.role),
        active: row.active,
        suspended,
        suspendedUntil: suspended && row.suspendedUntil ? new Date(row.suspendedUntil) : null,
      };
    };
    app.decorateRequest('viewer', function (this: FastifyRequest) {
      let pending = perRequest.get(this);
      if (!pending) {
        pending = resolve(this);
        perRequest.set(this, pending);
      }
      return pending;
    });
    done();
  },
  { name: 'viewer' },
);
