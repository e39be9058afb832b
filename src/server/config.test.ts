import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig } from './config.js';

const secret = 'x'.repeat(32);
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The ConfigError `loadConfig` throws for `env`. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ AUTH_SECRET: secret, DATA_DIR: '/nonexistent/hearth', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('runs with no configuration at all but a secret (zero services by default)', () => {
    const config = loadConfig({ AUTH_SECRET: secret });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('data'),
      publicUrl: 'http://localhost:3000',
      publicOrigin: 'http://localhost:3000',
      secureCookies: false,
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'hearth:',
      smtpUrl: undefined,
      mailFrom: 'Hearth <no-reply@localhost>',
      contactEmail: undefined,
      instanceName: 'Hearth',
      authSecret: secret,
      registrationMode: 'open',
      trustProxy: false,
      logLevel: 'info',
      rateLimits: true,
    });
    expect(path.isAbsolute(config.webDir)).toBe(true);
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      AUTH_SECRET: secret,
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/hearth',
      PUBLIC_URL: 'https://social.example.org/',
      DATABASE_URL: 'postgres://hearth@db/hearth',
      REDIS_URL: 'redis://cache:6379',
      REDIS_PREFIX: 'h1:',
      SMTP_URL: 'smtp://mail:25',
      CONTACT_EMAIL: 'team@example.org',
      INSTANCE_NAME: 'Our Place',
      REGISTRATION_MODE: 'approval',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      WEB_DIR: '/srv/web',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/hearth',
      publicUrl: 'https://social.example.org',
      publicOrigin: 'https://social.example.org',
      databaseUrl: 'postgres://hearth@db/hearth',
      redisUrl: 'redis://cache:6379',
      redisPrefix: 'h1:',
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Our Place <no-reply@social.example.org>',
      contactEmail: 'team@example.org',
      instanceName: 'Our Place',
      registrationMode: 'approval',
      trustProxy: 1,
      logLevel: 'warn',
      rateLimits: false,
      webDir: '/srv/web',
    });
  });

  it('is silent under test unless told otherwise', () => {
    expect(loadConfig({ AUTH_SECRET: secret, NODE_ENV: 'test' }).logLevel).toBe('silent');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ AUTH_SECRET: secret, PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://root@localhost/hearth'],
    ['REDIS_URL', 'http://cache:6379'],
    ['SMTP_URL', 'mail.example.org'],
    ['PUBLIC_URL', 'ftp://example.org'],
    ['REGISTRATION_MODE', 'x'],
    ['TRUST_PROXY', 'maybe'],
    ['NODE_ENV', 'staging'],
    ['AUTH_SECRET', 'too-short'],
    ['CONTACT_EMAIL', 'not-an-address'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMITS', 'false'],
  ])('names the variable when %s=%s', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^  ${name}: `, 'm'));
  });

  it('names every bad variable at once', () => {
    const error = configError({ PORT: 'abc', REGISTRATION_MODE: 'x', TRUST_PROXY: 'maybe' });
    for (const name of ['PORT', 'REGISTRATION_MODE', 'TRUST_PROXY']) {
      expect(error.message).toContain(`  ${name}: `);
    }
  });

  it.each([
    ['true', 1],
    ['1', 1],
    ['yes', 1],
    ['2', 2],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('reads TRUST_PROXY=%s as %s', (value, expected) => {
    expect(loadConfig({ AUTH_SECRET: secret, TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it('reads TRUST_PROXY as a list of proxy addresses and ranges', () => {
    expect(
      loadConfig({ AUTH_SECRET: secret, TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' })
        .trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'loopback']);
  });

  it.each(['10.0.0.300', '10.0.0.0/33', 'proxy.example', '10.0.0.1,', '21'])(
    'names TRUST_PROXY when it is %s',
    (value) => {
      expect(configError({ TRUST_PROXY: value }).message).toMatch(/^ {2}TRUST_PROXY: /m);
    },
  );

  /** The client address Fastify resolves for a request from `peer` carrying `forwardedFor`. */
  async function resolvedIp(trustProxy: string, peer: string, forwardedFor: string) {
    const config = loadConfig({ AUTH_SECRET: secret, TRUST_PROXY: trustProxy });
    const app = Fastify({ trustProxy: fastifyTrustProxy(config.trustProxy) });
    app.get('/', (request) => ({ ip: request.ip }));
    try {
      const response = await app.inject({
        url: '/',
        remoteAddress: peer,
        headers: { 'x-forwarded-for': forwardedFor },
      });
      return response.json<{ ip: string }>().ip;
    } finally {
      await app.close();
    }
  }

  it('with TRUST_PROXY=true believes the one hop the proxy added, not what the client wrote', async () => {
    expect(await resolvedIp('true', '10.9.9.9', 'forged, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('with a hop count believes that many proxies', async () => {
    expect(await resolvedIp('2', '10.9.9.9', 'forged, 203.0.113.7, 10.0.0.2')).toBe('203.0.113.7');
  });

  it('with a list believes only those proxies', async () => {
    expect(await resolvedIp('10.9.9.0/24', '10.9.9.9', 'forged, 203.0.113.7')).toBe('203.0.113.7');
    // A peer outside the list is the client itself, whatever it forwards.
    expect(await resolvedIp('10.9.9.0/24', '198.51.100.1', '203.0.113.7')).toBe('198.51.100.1');
  });

  it('with TRUST_PROXY=false ignores X-Forwarded-For', async () => {
    expect(await resolvedIp('false', '198.51.100.1', '203.0.113.7')).toBe('198.51.100.1');
  });

  it('refuses to run in production without AUTH_SECRET, and writes nothing', () => {
    const dataDir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(
      /AUTH_SECRET: required in production/,
    );
    expect(() => statSync(path.join(dataDir, 'auth-secret'))).toThrow();
  });

  it('in development, generates a secret once into DATA_DIR and reuses it', () => {
    const dataDir = path.join(tempDir(), 'not-yet-created');
    const first = loadConfig({ DATA_DIR: dataDir }).authSecret;
    const file = path.join(dataDir, 'auth-secret');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    // Only the server's user may read it.
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: tempDir() }).authSecret).not.toBe(first);
  });

  it('prefers AUTH_SECRET to a generated one', () => {
    const dataDir = tempDir();
    loadConfig({ DATA_DIR: dataDir });
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: secret }).authSecret).toBe(secret);
  });

  it('uses secure cookies exactly when PUBLIC_URL is https', () => {
    expect(
      loadConfig({ AUTH_SECRET: secret, PUBLIC_URL: 'https://hearth.example' }).secureCookies,
    ).toBe(true);
    expect(
      loadConfig({ AUTH_SECRET: secret, PUBLIC_URL: 'http://hearth.example' }).secureCookies,
    ).toBe(false);
  });

  it('derives the origin browsers must send from PUBLIC_URL', () => {
    const config = loadConfig({
      AUTH_SECRET: secret,
      PUBLIC_URL: 'https://Example.org:8443/hearth/',
    });
    expect(config.publicUrl).toBe('https://Example.org:8443/hearth');
    expect(config.publicOrigin).toBe('https://example.org:8443');
  });
});
