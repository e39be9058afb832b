import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { rateLimits } from '../shared/limits.js';
import { registrationModeSchema } from '../shared/schemas/instance.js';
import type { S3Settings } from './media/storage.js';
import { ensurePrivateDir } from './private-files.js';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'use true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Names of address ranges Fastify's proxy trust understands besides addresses and CIDRs. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `value` is an IP address, an IP/prefix CIDR, or one of `proxyRangeNames`. */
function isProxyAddress(value: string): boolean {
  if (proxyRangeNames.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which `X-Forwarded-For` hops to believe. `true` is exactly one hop (the proxy in front of us): trusting
 * every hop would let a client name its own address and escape every per-IP limit.
 */
const trustProxyFromEnv = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    const lower = value.toLowerCase();
    if (['false', 'no', '0'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return 1;
    if (/^\d+$/.test(value) && Number(value) <= 20) return Number(value);
    const addresses = value.split(',').map((item) => item.trim());
    if (addresses.every(isProxyAddress)) return addresses;
    context.addIssue({
      code: 'custom',
      message:
        'use false, true (one proxy), a number of proxy hops, or a comma-separated list of proxy addresses or CIDRs',
    });
    return z.NEVER;
  });

const urlWithProtocols = (protocols: readonly string[]) =>
  z
    .url({ error: `use a URL starting with ${protocols.join(' or ')}` })
    .refine((value) => protocols.some((protocol) => value.startsWith(protocol)), {
      error: `use a URL starting with ${protocols.join(' or ')}`,
    });

/** Every environment variable Hearth reads, with its default. The README's configuration table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'use a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: urlWithProtocols(['http://', 'https://']).optional(),
  DATABASE_URL: urlWithProtocols(['postgres://', 'postgresql://']).optional(),
  SQLITE_SYNC: z.enum(['normal', 'full'], { error: 'use normal or full' }).default('normal'),
  REDIS_URL: urlWithProtocols(['redis://', 'rediss://']).optional(),
  REDIS_PREFIX: z.string().min(1).default('hearth:'),
  SMTP_URL: urlWithProtocols(['smtp://', 'smtps://']).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  CONTACT_EMAIL: z.email({ error: 'use an email address' }).optional(),
  INSTANCE_NAME: z.string().trim().min(1).max(60).default('Hearth'),
  AUTH_SECRET: z.string().min(32, { error: 'use at least 32 characters' }).optional(),
  REGISTRATION_MODE: registrationModeSchema.default('open'),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  RATE_LIMITS: z.enum(['on', 'off'], { error: 'use on or off' }).default('on'),
  SIGNUP_ATTEMPTS_PER_IP: z.coerce
    .number({ error: 'use a whole number of at least 1' })
    .int({ error: 'use a whole number of at least 1' })
    .min(1, { error: 'use a whole number of at least 1' })
    .default(rateLimits.signUp.max),
  SIGNUP_ACCOUNTS_PER_IP: z.coerce
    .number({ error: 'use a whole number of at least 1' })
    .int({ error: 'use a whole number of at least 1' })
    .min(1, { error: 'use a whole number of at least 1' })
    .default(rateLimits.signUpAccounts.max),
  WEB_VITALS_SAMPLE_RATE: z.coerce
    .number({ error: 'use a number from 0 to 1' })
    .min(0, { error: 'use a number from 0 to 1' })
    .max(1, { error: 'use a number from 0 to 1' })
    .default(0.5),
  READ_CACHE_POSTS: z.coerce
    .number({ error: 'use a whole number from 0 to 1000000' })
    .int({ error: 'use a whole number from 0 to 1000000' })
    .min(0, { error: 'use a whole number from 0 to 1000000' })
    .max(1_000_000, { error: 'use a whole number from 0 to 1000000' })
    .default(20_000),
  READ_CACHE_PROFILES: z.coerce
    .number({ error: 'use a whole number from 0 to 1000000' })
    .int({ error: 'use a whole number from 0 to 1000000' })
    .min(0, { error: 'use a whole number from 0 to 1000000' })
    .max(1_000_000, { error: 'use a whole number from 0 to 1000000' })
    .default(10_000),
  WEB_DIR: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: urlWithProtocols(['http://', 'https://']).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: urlWithProtocols(['http://', 'https://']).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
});

export type Env = z.input<typeof envSchema>;

/** The validated, typed configuration. Read once (STYLE.md §8); nothing else reads process.env. */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** Origin (scheme://host:port) browsers must send on state-changing requests. */
  publicOrigin: string;
  secureCookies: boolean;
  databaseUrl: string | undefined;
  /** SQLite's commit mode (ADR 0029): what a power loss may cost; a process crash loses nothing in either. */
  sqliteSync: 'normal' | 'full';
  redisUrl: string | undefined;
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string | undefined;
  instanceName: string;
  authSecret: string;
  registrationMode: z.infer<typeof registrationModeSchema>;
  /**
   * Fastify's `trustProxy`: false (the socket's peer is the client), a number of proxy hops, or the
   * addresses of the proxies.
   */
  trustProxy: false | number | string[];
  logLevel: string;
  /** False only for load benchmarks, which would otherwise measure the 429 path. */
  rateLimits: boolean;
  /**
   * Sign-up limits per client address (issue: moderation and administration §7): attempts in 30 minutes,
   * refused ones included; and accounts actually created in a day.
   */
  signUpLimits: { attemptsPerIp: number; accountsPerIp: number };
  /** The share of page loads whose performance the web app reports. */
  webVitalsSampleRate: number;
  /** How many public post and profile documents each instance keeps in memory (ADR 0028); 0 keeps none. */
  readCache: { posts: number; profiles: number };
  webDir: string;
  /** Media on an S3-compatible store when S3_BUCKET is set; otherwise in DATA_DIR/media. */
  s3: S3Settings | undefined;
}

/**
 * The `trustProxy` option Fastify needs for a TRUST_PROXY setting. A hop count becomes a function: Fastify
 * given a plain number trusts no hop at all.
 */
export function fastifyTrustProxy(
  trustProxy: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address, hop) => hop < trustProxy;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads `AUTH_SECRET` from the data folder, creating it once (development and test only). */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    ensurePrivateDir(dataDir);
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** Turns an environment into a Config, or throws a ConfigError naming every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const publicOrigin = new URL(publicUrl).origin;

  let authSecret = env.AUTH_SECRET;
  if (!authSecret) {
    if (env.NODE_ENV === 'production') {
      throw new ConfigError(
        'Invalid configuration:\n  AUTH_SECRET: required in production (at least 32 random characters, e.g. `openssl rand -base64 32`)',
      );
    }
    authSecret = developmentSecret(dataDir);
  }

  let s3: S3Settings | undefined;
  if (env.S3_BUCKET) {
    const publicUrl =
      env.S3_PUBLIC_URL ??
      (env.S3_ENDPOINT
        ? `${env.S3_ENDPOINT.replace(/\/+$/, '')}/${env.S3_BUCKET}`
        : `https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`);
    s3 = {
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      publicUrl,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
  }

  const webDir = env.WEB_DIR
    ? path.resolve(env.WEB_DIR)
    : path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist/web');

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    publicUrl,
    publicOrigin,
    secureCookies: publicUrl.startsWith('https://'),
    databaseUrl: env.DATABASE_URL,
    sqliteSync: env.SQLITE_SYNC,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `${env.INSTANCE_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
    contactEmail: env.CONTACT_EMAIL,
    instanceName: env.INSTANCE_NAME,
    authSecret,
    registrationMode: env.REGISTRATION_MODE,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    rateLimits: env.RATE_LIMITS === 'on',
    signUpLimits: {
      attemptsPerIp: env.SIGNUP_ATTEMPTS_PER_IP,
      accountsPerIp: env.SIGNUP_ACCOUNTS_PER_IP,
    },
    webVitalsSampleRate: env.WEB_VITALS_SAMPLE_RATE,
    readCache: { posts: env.READ_CACHE_POSTS, profiles: env.READ_CACHE_PROFILES },
    webDir,
    s3,
  };
}
