import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig, type Config, type Env } from '../config.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';

/** Where integration tests run: always SQLite; PostgreSQL too when TEST_DATABASE_URL is set. */
export interface DatabaseTarget {
  name: 'sqlite' | 'postgres';
  /** Creates a fresh, empty database and returns its URL (undefined for SQLite in DATA_DIR). */
  create(): Promise<{ url: string | undefined; drop(): Promise<void> }>;
}

const sqliteTarget: DatabaseTarget = {
  name: 'sqlite',
  create: () => Promise.resolve({ url: undefined, drop: () => Promise.resolve() }),
};

/** A PostgreSQL server URL with a fresh database per app, dropped afterwards. */
function postgresTarget(serverUrl: string): DatabaseTarget {
  return {
    name: 'postgres',
    async create() {
      const name = `hearth_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const client = new pg.Client({ connectionString: serverUrl });
          await client.connect();
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await client.end();
        },
      };
    },
  };
}

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  console.error('PostgreSQL integration tests skipped: set TEST_DATABASE_URL to run them.');
}

/** The databases every integration suite runs against. */
export const databaseTargets: DatabaseTarget[] = postgresUrl
  ? [sqliteTarget, postgresTarget(postgresUrl)]
  : [sqliteTarget];

/** Redis for multi-instance tests, when TEST_REDIS_URL is set. */
export const testRedisUrl = process.env.TEST_REDIS_URL;

export const testOrigin = 'http://hearth.test';

/** A mailer that keeps messages in memory, for tests to read. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {
    // Nothing to release.
  }
  /** The most recent message to `to`. */
  lastTo(to: string): MailMessage | undefined {
    return this.sent.filter((message) => message.to === to).at(-1);
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  mail: MemoryMailer;
  /** Closes the app, drops its database and removes its DATA_DIR. */
  close(): Promise<void>;
}

/** Builds a whole app on a fresh database and DATA_DIR. */
export async function createTestApp(
  target: DatabaseTarget,
  env: Partial<Env> = {},
  shared?: { databaseUrl: string | undefined; dataDir: string },
): Promise<TestApp> {
  const dataDir = shared?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'hearth-test-'));
  const database = shared
    ? { url: shared.databaseUrl, drop: () => Promise.resolve() }
    : await target.create();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: testOrigin,
    INSTANCE_NAME: 'Hearth Test',
    CONTACT_EMAIL: 'team@hearth.test',
    WEB_DIR: path.join(dataDir, 'no-web-build'),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const mail = new MemoryMailer();
  const app = await buildApp(config, { mailer: mail });
  await app.ready();
  return {
    app,
    config,
    mail,
    async close() {
      await app.close();
      await database.drop();
      if (!shared) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let ipCounter = 0;
/** A client IP no other test uses, so per-IP rate limits never leak between tests. */
export function uniqueIp(): string {
  ipCounter += 1;
  return `10.${(process.pid % 200) + 1}.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export interface RequestOptions {
  cookie?: string;
  ip?: string;
  origin?: string | null;
  headers?: Record<string, string>;
}

/** Sends a request the way a browser on this instance would (Origin header, cookie, client IP). */
export function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? testOrigin;
  if (options.cookie) headers.cookie = options.cookie;
  if (body !== undefined && typeof body !== 'string') headers['content-type'] = 'application/json';
  return app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? uniqueIp(),
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieFrom(response: LightMyRequestResponse): string {
  return response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

let userCounter = 0;
/** Fresh, valid sign-up details. */
export function newUserInput(overrides: Partial<Record<string, string>> = {}) {
  userCounter += 1;
  const tag = `${randomBytes(3).toString('hex')}${userCounter}`;
  return {
    email: `person_${tag}@example.test`,
    username: `person_${tag}`,
    password: `a long secret ${tag}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...overrides,
  };
}

/** Signs a new user up and returns the details, the session cookie and the user document. */
export async function signUp(app: FastifyInstance, overrides: Partial<Record<string, string>> = {}) {
  const input = newUserInput(overrides);
  const response = await send(app, 'POST', '/api/auth/sign-up', input);
  if (response.statusCode !== 201) {
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  }
  const { user } = response.json<{ user: { uid: string; username: string } }>();
  return { input, cookie: cookieFrom(response), user };
}
