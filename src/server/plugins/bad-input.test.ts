import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared/errors.js';
import { buildApp, type AppOverrides } from '../app.js';
import { loadConfig } from '../config.js';
import {
  databaseTargets,
  send,
  signUp,
  testOrigin,
  uniqueIp,
  type DatabaseTarget,
} from '../test/harness.js';

interface LoggedApp {
  app: FastifyInstance;
  baseUrl: string;
  /** Log lines at error level (50) or above since the last `clearLog()`. */
  errors(): string[];
  clearLog(): void;
  close(): Promise<void>;
}

/**
 * A listening app on a fresh database whose log lines (from `info` up) are kept, so a test can tell a
 * client's mistake (info) from a server failure (error). `prepare` adds routes before the app is ready.
 */
async function startApp(
  target: DatabaseTarget,
  overrides: Omit<AppOverrides, 'logStream'> = {},
  prepare?: (app: FastifyInstance) => void,
): Promise<LoggedApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-bad-input-'));
  // A built web app, so that paths which are not files are answered as in production.
  const webDir = path.join(dataDir, 'web');
  mkdirSync(webDir);
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
  const database = await target.create();
  const lines: string[] = [];
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: testOrigin,
    WEB_DIR: webDir,
    LOG_LEVEL: 'info',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const app = await buildApp(config, {
    ...overrides,
    logStream: { write: (line) => lines.push(line) },
  });
  prepare?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on TCP');
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    errors: () => lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50),
    clearLog: () => lines.splice(0),
    async close() {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts a 4xx answer in the one JSON error shape and returns its code. */
function expectClientError(response: LightMyRequestResponse, statuses: number[] = [400]) {
  expect(statuses, `${response.statusCode} ${response.body}`).toContain(response.statusCode);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return errorBodySchema.parse(response.json()).error;
}

interface RawResponse {
  status: number;
  head: string;
  body: string;
  /** The server ended the connection (rather than the test). */
  closed: boolean;
}

/**
 * Writes bytes to a plain TCP connection and reads the answer until the server closes the connection or
 * `waitMs` passes; for what `inject` cannot send (raw bytes in the request line, bodies that stall).
 */
function rawExchange(
  baseUrl: string,
  chunks: (Buffer | string)[],
  { waitMs = 3_000, endAfterAnswer = true, gapMs = 0 } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const body = end < 0 ? '' : text.slice(end + 4);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (endAfterAnswer && end >= 0 && length >= 0 && received.length >= end + 4 + length) {
        finish(false);
      }
    });
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (received.length > 0 ? finish(true) : reject(error)));
    chunks.forEach((chunk, index) => {
      if (gapMs === 0) socket.write(chunk);
      // Each chunk `gapMs` after the one before it: a client on a slow line.
      else setTimeout(() => socket.write(chunk), index * gapMs);
    });
  });
}

/** The error body of a raw answer, checked against the one shape. */
function rawError(response: RawResponse) {
  expect(response.head).toMatch(/\r\ncontent-type: application\/json/i);
  return errorBodySchema.parse(JSON.parse(response.body)).error;
}

async function expectHealthy(app: FastifyInstance) {
  expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
}

/** A multipart body: one text field, then a file, with the given boundary. */
function multipartBody(boundary: string) {
  return Buffer.from(
    [
      `--${boundary}`,
      'Content-Disposition: form-data; name="body"',
      '',
      'Hello there',
      `--${boundary}`,
      'Content-Disposition: form-data; name="image0"; filename="a.jpg"',
      'Content-Type: image/jpeg',
      '',
      'x'.repeat(2_000),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

const deep = {
  arrays: (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`,
  objects: (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
};

describe.each(databaseTargets)('bad input on $name', (target) => {
  let t: LoggedApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await startApp(target, {}, (app) => {
      // An error from a dependency that says it is the client's doing, whatever its code.
      app.get('/test/client-error', () => {
        throw Object.assign(new Error('range not satisfiable'), {
          statusCode: 416,
          code: 'ERR_SOMETHING',
        });
      });
    });
    user = await signUp(t.app);
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    const errors = t.errors();
    t.clearLog();
    await expectHealthy(t.app);
    expect(errors).toEqual([]);
  });

  const jsonRoutes = () =>
    [
      { method: 'POST', url: '/api/auth/sign-in' },
      { method: 'POST', url: '/api/auth/sign-up' },
      { method: 'POST', url: '/api/posts' },
      { method: 'PATCH', url: `/api/users/${user.user.uid}/profile` },
    ] as const;

  const sendJson = (method: 'POST' | 'PATCH', url: string, payload: string) =>
    send(t.app, method, url, payload, {
      cookie: user.cookie,
      headers: { 'content-type': 'application/json' },
    });

  it.each([
    ['arrays 20,000 deep', deep.arrays(20_000)],
    ['objects 10,000 deep', deep.objects(10_000)],
    ['arrays 40 deep', deep.arrays(40)],
    ['objects 40 deep inside a field', `{"email":${deep.objects(40)}}`],
    ['an array of 30,000 items', `[${Array.from({ length: 30_000 }, () => '0').join(',')}]`],
  ])('refuses JSON of %s with 400 on every JSON route', async (_name, payload) => {
    for (const { method, url } of jsonRoutes()) {
      const error = expectClientError(await sendJson(method, url, payload));
      expect(error.code).toBe('bad_request');
    }
  });

  it('answers deep invalid JSON with 400 and a too-large one with 413', async () => {
    for (const { method, url } of jsonRoutes()) {
      expectClientError(await sendJson(method, url, '['.repeat(60_000)));
      expectClientError(await sendJson(method, url, '{"a":'.repeat(10_000)));
      expectClientError(await sendJson(method, url, deep.arrays(100_000)), [413]);
    }
  });

  it('answers deep JSON around __proto__ and constructor with 400', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const payload = `${'{"a":'.repeat(10_000)}{"${key}":{"prototype":{"x":1}}}${'}'.repeat(10_000)}`;
      for (const { method, url } of jsonRoutes()) {
        expectClientError(await sendJson(method, url, payload));
      }
    }
  });

  it('still takes ordinary nested JSON', async () => {
    const response = await sendJson(
      'POST',
      '/api/posts',
      JSON.stringify({ body: 'A normal post' }),
    );
    expect(response.statusCode, response.body).toBe(201);
  });

  const multipartRoutes = () =>
    [
      { method: 'POST', url: '/api/posts' },
      { method: 'PATCH', url: `/api/users/${user.user.uid}/profile` },
    ] as const;

  const sendMultipart = (method: 'POST' | 'PATCH', url: string, type: string, payload: Buffer) =>
    t.app.inject({
      method,
      url,
      headers: { 'content-type': type, origin: testOrigin, cookie: user.cookie },
      remoteAddress: uniqueIp(),
      payload,
    });

  it.each([
    ['no boundary', 'multipart/form-data', multipartBody('abc')],
    ['an empty boundary', 'multipart/form-data; boundary=', multipartBody('abc')],
    ['a wrong boundary', 'multipart/form-data; boundary=xyz', multipartBody('abc')],
    [
      'a truncated body',
      'multipart/form-data; boundary=abc',
      multipartBody('abc').subarray(0, 300),
    ],
    ['a body that is not multipart', 'multipart/form-data; boundary=abc', Buffer.from('hello')],
  ])('answers multipart with %s with 400 on every upload route', async (_name, type, payload) => {
    for (const { method, url } of multipartRoutes()) {
      expectClientError(await sendMultipart(method, url, type, payload));
    }
  });

  it('reads an empty form or a part without a name as an empty form, without a 5xx', async () => {
    const type = 'multipart/form-data; boundary=abc';
    const nameless = Buffer.from('--abc\r\nContent-Disposition\r\n\r\nx\r\n--abc--\r\n');
    for (const payload of [Buffer.alloc(0), nameless]) {
      // A post needs text or an image; a profile edit with nothing in it changes nothing.
      expectClientError(await sendMultipart('POST', '/api/posts', type, payload));
      const profile = `/api/users/${user.user.uid}/profile`;
      expect((await sendMultipart('PATCH', profile, type, payload)).statusCode).toBe(200);
    }
  });

  it.each([
    '/media/',
    '/media/.hidden',
    '/media/..%2f..%2fauth-secret',
    '/media/..%2fauth-secret',
    '/media/%2e%2e/auth-secret',
    '/media/%2e%2e%2fauth-secret',
    '/media/a%00b',
    '/media/%00',
    '/media/posts/.x/a.jpg',
    '/media/no-such-file.jpg',
  ])('answers %s with 4xx in the one error shape', async (url) => {
    // Over a socket: `inject` would resolve the dot segments before the server saw them.
    const response = await rawExchange(t.baseUrl, [
      `GET ${url} HTTP/1.1\r\nHost: hearth.test\r\nConnection: close\r\n\r\n`,
    ]);
    expect([400, 403, 404], response.head).toContain(response.status);
    expect(rawError(response).message.length).toBeGreaterThan(0);
    expect(response.body).not.toMatch(/auth-secret|ENOENT|\/tmp\//);
  });

  it('answers an error that carries a 4xx status with that status, logged as a client error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/client-error' });
    const error = expectClientError(response, [416]);
    expect(error.message).not.toContain('range not satisfiable');
  });

  it.each([
    ['a raw 0xFF in the path', Buffer.from([0xff])],
    ['an unencoded é in the path', Buffer.from('é', 'utf8')],
    ['a raw 0x80 in the query', Buffer.from('?q=\x80', 'latin1')],
    ['a NUL in the path', Buffer.from([0x00])],
    ['a space in the path', Buffer.from('a b')],
  ])('answers %s of the request line with 400', async (_name, bytes) => {
    const response = await rawExchange(t.baseUrl, [
      Buffer.concat([
        Buffer.from('GET /api/users/'),
        bytes,
        Buffer.from(' HTTP/1.1\r\nHost: hearth.test\r\nConnection: close\r\n\r\n'),
      ]),
    ]);
    expect(response.status, response.head).toBe(400);
    expect(rawError(response).code).toBe('bad_request');
  });

  it.each([
    ['x-anything', Buffer.from([0xff, 0xfe])],
    ['cookie', Buffer.from('a=\xff; b.session_token=\xe9', 'latin1')],
    ['origin', Buffer.from('http://h\xe9arth.test', 'latin1')],
    ['accept-language', Buffer.from('é', 'utf8')],
    ['content-type', Buffer.from('application/json; charset=\xff', 'latin1')],
  ])('answers raw bytes in the %s header without a 5xx', async (name, bytes) => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    const response = await rawExchange(t.baseUrl, [
      Buffer.concat([
        Buffer.from(`POST /api/auth/sign-in HTTP/1.1\r\nHost: hearth.test\r\n${name}: `),
        bytes,
        Buffer.from(
          `\r\n${name === 'origin' ? '' : `Origin: ${testOrigin}\r\n`}` +
            (name === 'content-type' ? '' : 'Content-Type: application/json\r\n') +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        ),
      ]),
    ]);
    expect(response.status, response.head).toBeGreaterThanOrEqual(400);
    expect(response.status, response.head).toBeLessThan(500);
    rawError(response);
  });

  it('does not log a client that goes away mid-body or mid-upload as an error', async () => {
    const json = await rawExchange(
      t.baseUrl,
      [
        `POST /api/auth/sign-in HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a',
      ],
      { waitMs: 200 },
    );
    expect(json.status).toBe(0);
    const upload = await rawExchange(
      t.baseUrl,
      [
        `POST /api/posts HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
          `Cookie: ${user.cookie}\r\nContent-Type: multipart/form-data; boundary=abc\r\n` +
          'Content-Length: 100000\r\n\r\n',
        multipartBody('abc').subarray(0, 400),
      ],
      { waitMs: 300 },
    );
    expect(upload.status).toBe(0);
    // The server sees the connection close after the test's socket is destroyed.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
});

// Time limits do not depend on the database; SQLite is enough here.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

describe('request time limits', () => {
  let t: LoggedApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await startApp(sqlite, {
      timeouts: { jsonBodyMs: 150, headersMs: 300, requestMs: 800, checkIntervalMs: 50 },
    });
    user = await signUp(t.app);
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    const errors = t.errors();
    t.clearLog();
    await expectHealthy(t.app);
    expect(errors).toEqual([]);
  });

  it('answers a JSON body that stops arriving with 408 and closes the connection', async () => {
    const response = await rawExchange(
      t.baseUrl,
      [
        `POST /api/auth/sign-in HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      ],
      { endAfterAnswer: false },
    );
    expect(response.status, response.head).toBe(408);
    expect(response.closed).toBe(true);
    expect(rawError(response).code).toBe('bad_request');
  });

  it('reads a JSON body that arrives in parts within its window', async () => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    const response = await rawExchange(
      t.baseUrl,
      [
        `POST /api/auth/sign-in HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
          body.slice(0, 10),
        body.slice(10),
      ],
      { gapMs: 50 },
    );
    // Read and checked: a wrong password, not a body that failed to arrive.
    expect([400, 401], response.head).toContain(response.status);
  });

  it('cuts headers that never finish', async () => {
    const response = await rawExchange(
      t.baseUrl,
      ['GET /api/health HTTP/1.1\r\nHost: hearth.test\r\nX-Slow: 1\r\n'],
      { endAfterAnswer: false },
    );
    expect(response.closed).toBe(true);
    expect([0, 408]).toContain(response.status);
  });

  it('keeps a connection alive when the whole request was read', async () => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    const response = await rawExchange(t.baseUrl, [
      `POST /api/auth/sign-in HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ]);
    expect([400, 401], response.head).toContain(response.status);
    expect(response.head).toMatch(/\r\nconnection: keep-alive/i);
    expect(response.closed).toBe(false);
  });

  it('closes the connection of an upload answered before its body arrived', async () => {
    const response = await rawExchange(
      t.baseUrl,
      [
        `POST /api/posts HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
          'Content-Type: multipart/form-data; boundary=abc\r\nContent-Length: 100000\r\n\r\n',
        multipartBody('abc').subarray(0, 300),
      ],
      { endAfterAnswer: false, waitMs: 500 },
    );
    expect(response.status, response.head).toBe(401);
    expect(response.closed).toBe(true);
  });

  it('gives an upload longer than a JSON body, and cuts it at the upload window', async () => {
    const form = multipartBody('abc');
    const head =
      `POST /api/posts HTTP/1.1\r\nHost: hearth.test\r\nOrigin: ${testOrigin}\r\n` +
      `Cookie: ${user.cookie}\r\nContent-Type: multipart/form-data; boundary=abc\r\n`;
    const textOnly = Buffer.from(
      '--abc\r\nContent-Disposition: form-data; name="body"\r\n\r\nSlow but fine\r\n--abc--\r\n',
    );
    // Finishes after the JSON window but within the upload window: accepted.
    const slow = await rawExchange(
      t.baseUrl,
      [
        `${head}Content-Length: ${textOnly.length}\r\n\r\n`,
        textOnly.subarray(0, 20),
        textOnly.subarray(20),
      ],
      { gapMs: 200 },
    );
    expect(slow.status, slow.head).toBe(201);
    // Never finishes: the connection is closed at the upload window.
    const stalled = await rawExchange(
      t.baseUrl,
      [`${head}Content-Length: 100000\r\n\r\n`, form.subarray(0, 300)],
      { endAfterAnswer: false },
    );
    expect(stalled.closed).toBe(true);
  });
});
