import { AsyncLocalStorage } from 'node:async_hooks';
import {
  getCurrentAuthContextAsyncLocalStorage,
  getCurrentDBAdapterAsyncLocalStorage,
  getRequestStateAsyncLocalStorage,
} from '@better-auth/core/context';
import { betterAuth } from 'better-auth';
import { admin, username } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import { limits, resetTokenTtlSeconds } from '../../shared/limits.js';
import type { RegistrationMode } from '../../shared/schemas/instance.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { scoped } from './async-context.js';

/**
 * The registration mode the sign-up service decided on (an administrator's choice, ADR 0023), for the
 * user-creation hook below. The hook runs inside Better Auth's transaction, where reading the settings
 * would wait on the very connection that transaction holds (SQLite has one): so it is decided before and
 * handed over here. Without it (a tool creating accounts), `REGISTRATION_MODE` applies.
 */
export const signUpContext = scoped(
  new AsyncLocalStorage<{ registrationMode: RegistrationMode }>(),
);

/**
 * Scopes the storages Better Auth keeps its endpoint, request and transaction contexts in (ADR 0046), so
 * Node's promise hook is on only while Better Auth handles something. Run before the first call to it.
 */
export async function scopeAuthContexts(): Promise<void> {
  // Deprecated for reading the context; it is still the one way to reach the storage itself.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  scoped(await getCurrentAuthContextAsyncLocalStorage());
  scoped(await getRequestStateAsyncLocalStorage());
  scoped(await getCurrentDBAdapterAsyncLocalStorage());
}

export interface AuthHooks {
  /** Sends the password-reset mail; Better Auth hands over the user and the one-time token. */
  sendPasswordReset(user: { email: string; name: string }, token: string): Promise<void>;
  /**
   * A session was deleted (sign-out, password change or reset, expiry). The server forgets its cached
   * copies and tells the sockets opened with it; one-off tools that cache nothing leave it out.
   */
  sessionEnded?(session: { id: string; userId: string }): Promise<void>;
}

const sessionCookieNames = [
  'session_token',
  'session_data',
  'dont_remember',
  'account_data',
] as const;

/**
 * Cookie names: `hearth.*` over http; `__Host-hearth.*` over https, which pins them to this host, path
 * `/` and Secure (issue: accounts, "session cookie").
 */
function cookieSettings(config: Config) {
  const prefix = config.secureCookies ? '__Host-hearth' : 'hearth';
  return Object.fromEntries(
    sessionCookieNames.map((name) => [
      name,
      { name: `${prefix}.${name}`, attributes: { secure: config.secureCookies, path: '/' } },
    ]),
  );
}

/** Better Auth, used as a library: our own routes call `auth.api.*`, its HTTP handler is not mounted. */
export function createAuth(options: {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  hooks: AuthHooks;
}) {
  const { config, db, dialect, hooks } = options;
  return betterAuth({
    appName: config.instanceName,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [config.publicOrigin],
    database: { db, type: dialect, transaction: true },
    telemetry: { enabled: false },
    // Our routes own rate limiting (per IP and per account, shared across instances).
    rateLimit: { enabled: false },
    logger: { disabled: true },
    user: {
      modelName: 'users',
      additionalFields: {
        firstName: { type: 'string', required: false, input: true },
        lastName: { type: 'string', required: false, input: true },
        displayName: { type: 'string', required: false, input: false },
        cover: { type: 'string', required: false, input: false },
        bio: { type: 'string', required: false, input: false },
        active: { type: 'boolean', required: false, defaultValue: true, input: false },
        // Approval mode (issue: moderation and administration §6): set by the hook below, never by input.
        awaitingApproval: { type: 'boolean', required: false, defaultValue: false, input: false },
        // The answer to the sign-up question; the sign-up service passes it in approval mode only.
        signupAnswer: { type: 'string', required: false, input: true },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    account: { modelName: 'accounts' },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: limits.password.min,
      maxPasswordLength: limits.password.max,
      resetPasswordTokenExpiresIn: resetTokenTtlSeconds,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await hooks.sendPasswordReset(user, token);
      },
    },
    databaseHooks: {
      // Runs for every session Better Auth deletes, after its transaction, so cached copies end with it.
      session: {
        delete: { after: async (session) => await hooks.sessionEnded?.(session) },
      },
      user: {
        create: {
          // spec §4 / issue: new users are active unless an administrator must approve them.
          before: (user) => {
            const mode = signUpContext.getStore()?.registrationMode ?? config.registrationMode;
            const approval = mode === 'approval';
            return Promise.resolve({
              data: { ...user, active: !approval, awaitingApproval: approval, role: 'user' },
            });
          },
        },
      },
    },
    advanced: {
      cookiePrefix: 'hearth',
      useSecureCookies: false,
      cookies: cookieSettings(config),
      defaultCookieAttributes: { secure: config.secureCookies, sameSite: 'lax', httpOnly: true },
      // Our routes resolve the client IP (proxy-aware) and hand it over in this header.
      ipAddress: { ipAddressHeaders: ['x-hearth-client-ip'] },
    },
    plugins: [
      username({
        minUsernameLength: limits.username.min,
        maxUsernameLength: limits.username.max,
        usernameValidator: (name) => /^[a-z0-9_]+$/.test(name),
        validationOrder: { username: 'post-normalization' },
      }),
      admin({ defaultRole: 'user', adminRoles: ['admin'] }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
