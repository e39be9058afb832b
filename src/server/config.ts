import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { registrationModeSchema } from '../shared/schemas/instance.js';
import type { S3Settings } from './media/storage.js';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'use true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

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
  REDIS_URL: urlWithProtocols(['redis://', 'rediss://']).optional(),
  REDIS_PREFIX: z.string().min(1).default('hearth:'),
  SMTP_URL: urlWithProtocols(['smtp://', 'smtps://']).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  CONTACT_EMAIL: z.email({ error: 'use an email address' }).optional(),
  INSTANCE_NAME: z.string().trim().min(1).max(60).default('Hearth'),
  AUTH_SECRET: z.string().min(32, { error: 'use at least 32 characters' }).optional(),
  REGISTRATION_MODE: registrationModeSchema.default('open'),
  TRUST_PROXY: booleanFromEnv.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  RATE_LIMITS: z.enum(['on', 'off'], { error: 'use on or off' }).default('on'),
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
  redisUrl: string | undefined;
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string | undefined;
  instanceName: string;
  authSecret: string;
  registrationMode: z.infer<typeof registrationModeSchema>;
  trustProxy: boolean;
  logLevel: string;
  /** False only for load benchmarks, which would otherwise measure the 429 path. */
  rateLimits: boolean;
  webDir: string;
  /** Media on an S3-compatible store when S3_BUCKET is set; otherwise in DATA_DIR/media. */
  s3: S3Settings | undefined;
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
    mkdirSync(dataDir, { recursive: true });
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
    webDir,
    s3,
  };
}
