import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { expect } from 'vitest';
import type { ErrorCode } from '../../shared/error-codes.js';
import { errorBodySchema } from '../../shared/errors.js';
import { WebSocket } from 'ws';
import { realtimePath, serverMessageSchema, type ServerMessage } from '../../shared/realtime.js';
import { buildApp } from '../app.js';
import { loadConfig, type Config, type Env } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
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
          // A closed pool ends its connections without waiting for them: let them go before forcing the
          // rest, so no connection is cut mid-goodbye.
          for (let tries = 0; tries < 100; tries += 1) {
            const { rows } = await client.query<{ count: string }>(
              'SELECT count(*) FROM pg_stat_activity WHERE datname = $1',
              [name],
            );
            if (rows[0]?.count === '0') break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
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
  env: Partial<Record<keyof Env, string>> = {},
  shared?: { databaseUrl: string | undefined; dataDir: string },
): Promise<TestApp> {
  const dataDir = shared?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'hearth-test-'));
  const database = shared
    ? { url: shared.databaseUrl, drop: () => Promise.resolve() }
    : await target.create();
  const mail = new MemoryMailer();
  let config: Config;
  let app: FastifyInstance;
  try {
    config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: testOrigin,
      INSTANCE_NAME: 'Hearth Test',
      CONTACT_EMAIL: 'team@hearth.test',
      WEB_DIR: path.join(dataDir, 'no-web-build'),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    });
    app = await buildApp(config, { mailer: mail });
    await app.ready();
  } catch (error) {
    // An app that cannot start leaves no database or folder behind.
    await database.drop();
    if (!shared) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
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

/** Two instances of one deployment: one database and DATA_DIR, one Redis and key prefix. */
export interface InstancePair {
  a: TestApp;
  b: TestApp;
  /** Closes both apps, drops the database and deletes the pair's Redis keys. */
  close(): Promise<void>;
}

/** Builds two apps that share a fresh database, DATA_DIR and a Redis key prefix of their own. */
export async function createInstancePair(
  target: DatabaseTarget,
  redisUrl: string,
): Promise<InstancePair> {
  const prefix = uniqueRedisPrefix();
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
  const a = await createTestApp(target, env);
  let b: TestApp;
  try {
    b = await createTestApp(target, env, {
      databaseUrl: a.config.databaseUrl,
      dataDir: a.config.dataDir,
    });
  } catch (error) {
    await a.close();
    throw error;
  }
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
      await deleteRedisKeys(redisUrl, prefix);
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
    ...(body === undefined
      ? {}
      : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
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
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<Record<string, string>> = {},
) {
  const input = newUserInput(overrides);
  const response = await send(app, 'POST', '/api/auth/sign-up', input);
  if (response.statusCode !== 201) {
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  }
  const { user } = response.json<{ user: { uid: string; username: string } }>();
  return { input, cookie: cookieFrom(response), user };
}

/** A second connection to a test app's own database, for tests that must reach past the API (expired tokens). */
export function openAppDatabase(t: TestApp): DatabaseHandle {
  return openDatabase({
    dataDir: t.config.dataDir,
    databaseUrl: t.config.databaseUrl,
    poolSize: 1,
  });
}

/** Listens the app on a free port of 127.0.0.1 and returns its base URL (`http://127.0.0.1:<port>`). */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

/** A WebSocket client for `/api/realtime` that queues what the server sends, for tests to read in order. */
export interface RealtimeClient {
  socket: WebSocket;
  /** The next message from the server; rejects when the socket closes first. */
  next(): Promise<ServerMessage>;
  send(message: unknown): void;
  /** Sends a ping and resolves with every message that arrived before its pong (which is excluded). */
  flush(): Promise<ServerMessage[]>;
  close(): Promise<void>;
}

/** Opens `/api/realtime` on a listening app, as a browser on this instance would (Origin, optional cookie). */
export async function connectRealtime(
  baseUrl: string,
  options: { cookie?: string; origin?: string | null } = {},
): Promise<RealtimeClient> {
  const headers: Record<string, string> = {};
  if (options.origin !== null) headers.origin = options.origin ?? testOrigin;
  if (options.cookie) headers.cookie = options.cookie;
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${realtimePath}`, { headers });
  const queue: ServerMessage[] = [];
  const waiting: { resolve(message: ServerMessage): void; reject(error: Error): void }[] = [];
  let closed: Error | undefined;
  socket.on('message', (data: Buffer) => {
    let message: ServerMessage;
    try {
      message = serverMessageSchema.parse(JSON.parse(data.toString('utf8')));
    } catch (error) {
      // A message outside the contract fails whoever reads next, and every read after.
      closed = new Error(`the server sent a message outside the contract: ${String(error)}`);
      for (const waiter of waiting.splice(0)) waiter.reject(closed);
      return;
    }
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queue.push(message);
  });
  socket.on('close', (code: number) => {
    closed ??= new Error(`the socket closed (${code})`);
    for (const waiter of waiting.splice(0)) waiter.reject(closed);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`upgrade refused with ${response.statusCode}`));
    });
  });
  const next = () =>
    new Promise<ServerMessage>((resolve, reject) => {
      const queued = queue.shift();
      if (queued) resolve(queued);
      else if (closed) reject(closed);
      else waiting.push({ resolve, reject });
    });
  const send = (message: unknown) => {
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  };
  return {
    socket,
    next,
    send,
    async flush() {
      send({ type: 'ping' });
      const before: ServerMessage[] = [];
      for (let message = await next(); message.type !== 'pong'; message = await next()) {
        before.push(message);
      }
      return before;
    },
    close() {
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      });
    },
  };
}

/** Tries to open `/api/realtime` and returns the HTTP status of a refused upgrade (or 101 when it opened). */
export function realtimeUpgradeStatus(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${realtimePath}`, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      request.destroy();
    });
    socket.once('error', (error) => {
      if (socket.readyState !== WebSocket.CLOSED) reject(error);
    });
  });
}

/** A Redis key prefix no other test uses, for `REDIS_PREFIX`. */
export function uniqueRedisPrefix(): string {
  return `hearth-test-${randomBytes(6).toString('hex')}:`;
}

/** Deletes every Redis key under `prefix` (rate-limit counters a test left behind). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = nextCursor;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Asserts the one JSON error shape, its status and code, and (optionally) a message on `field`. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
  field?: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const { error } = errorBodySchema.parse(response.json());
  expect(error.code, response.body).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  if (field) expect(error.fields?.[field], JSON.stringify(error)).toMatch(/\w/);
  return error;
}

/** A raw TCP connection that asked for `/api/realtime`, and the head of the server's answer. */
export interface RawUpgrade {
  socket: net.Socket;
  status: number;
  /** The status line and headers of the answer. */
  head: string;
  /** Bytes after the response head (the first frames, on a 101). */
  rest: Buffer;
  /** Resolves when the server ends or resets the connection. */
  closed: Promise<void>;
}

/**
 * Asks for a WebSocket upgrade over a plain TCP socket, so a test can see what a proxy sees: the answer,
 * and whether the server then ends the connection. On a 101 the socket speaks WebSocket frames and can be
 * paused like a reader that stopped reading.
 */
export function rawRealtimeUpgrade(
  baseUrl: string,
  headers: Record<string, string> = { origin: testOrigin },
): Promise<RawUpgrade> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.on('end', () => resolve());
  });
  socket.on('error', () => undefined);
  const lines = [
    `GET ${realtimePath} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise<RawUpgrade>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const head = received.subarray(0, end).toString('latin1');
      const rest = received.subarray(end + 4);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      // A refused upgrade may carry a body; read and drop it so 'end' can be seen.
      if (status !== 101) socket.resume();
      resolve({ socket, status, head, rest, closed });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    closed.then(
      () => reject(new Error('the server closed the connection before answering')),
      reject,
    );
  });
}

/** A masked client text frame (RFC 6455 §5.2), for raw sockets to speak WebSocket. */
export function clientTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/** Resolves true when `closed` settles within `ms`, false otherwise (a connection the server left open). */
export function closesWithin(closed: Promise<void>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void closed.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
