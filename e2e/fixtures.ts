import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { z } from 'zod';
import { displayNameOf } from '../src/shared/display-name.js';
import {
  commentSchema,
  postViewSchema,
  type Comment,
  type PostView,
} from '../src/shared/schemas/post.js';
import { meSchema, type Me } from '../src/shared/schemas/user.js';
import { envNames, requiredEnv } from './support/env.js';
import type { UploadFile } from './support/images.js';
import { waitForMail, type Mail, type ReadMailOptions } from './support/mail.js';
import { repoRoot } from './support/server.js';
import type { PageGlobals } from './support/page-globals.js';

export { expect };
export type { Mail, ReadMailOptions };

/** What a test chooses about a new user; everything left out is made unique. */
export interface NewUser {
  email: string;
  username: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** A user that exists on the server, with the credentials it was made with. */
export interface TestUser extends NewUser {
  uid: string;
  /** spec §3 display name ("First Last"), as the menu button and profile heading show it. */
  displayName: string;
  /** The user as the sign-up response returned it. */
  user: Me;
}

/** Anything that can sign in: by username by default. */
export interface Credentials {
  username: string;
  email: string;
  password: string;
}

/** A post to write through the API: text, and images with their alt texts (in display order). */
export interface NewPost {
  body?: string;
  images?: { file: UploadFile; alt?: string }[];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let ipCounter = 0;
let nameCounter = 0;

/**
 * A client address no other test in this run uses: per-IP rate limits (sign-up 5 / 30 min, sign-in 10 / 5 min)
 * then count only the test's own requests. The worker index keeps two workers apart.
 */
export function uniqueIp(): string {
  ipCounter += 1;
  const worker = Number(process.env.TEST_WORKER_INDEX ?? '0') % 200;
  return `10.${String(worker + 1)}.${String((ipCounter >> 8) & 255)}.${String(ipCounter & 255)}`;
}

function uniqueSuffix(): string {
  nameCounter += 1;
  const worker = Number(process.env.TEST_WORKER_INDEX ?? '0');
  return `${String(worker)}${String(nameCounter)}${randomBytes(3).toString('hex')}`;
}

function randomLetters(length: number): string {
  return Array.from(randomBytes(length), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

/** Fresh, valid sign-up input: usernames are 3–30 of [a-z0-9_], passwords long and uncommon. */
export function newUserInput(overrides: Partial<NewUser> = {}): NewUser {
  const suffix = uniqueSuffix();
  const username = overrides.username ?? `e2e_${suffix}`;
  const letters = randomLetters(6);
  return {
    email: overrides.email ?? `${username}@example.test`,
    username,
    password: overrides.password ?? `Hearth-${randomBytes(6).toString('hex')}-Ok`,
    firstName: overrides.firstName ?? `Ada${letters.slice(0, 3)}`,
    lastName: overrides.lastName ?? `Tester${letters.slice(3)}`,
  };
}

const signUpResponseSchema = z.object({ user: meSchema });
const sessionSchema = z.object({ user: meSchema.nullable() });

/** A request context of its own (own client IP), for set-up calls that must not touch the test's browser. */
export async function isolatedRequest(
  request: {
    newContext: (options: {
      baseURL: string;
      extraHTTPHeaders: Record<string, string>;
    }) => Promise<APIRequestContext>;
  },
  baseURL: string,
): Promise<APIRequestContext> {
  return request.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp(), Origin: baseURL },
  });
}

/** Signs in through the API so the session cookie lands in the browser context. */
export async function signInViaApi(
  context: BrowserContext,
  baseURL: string,
  user: Credentials,
  identifier: 'username' | 'email' = 'username',
): Promise<void> {
  const response = await context.request.post('/api/auth/sign-in', {
    data: { identifier: user[identifier], password: user.password },
    headers: { Origin: baseURL },
  });
  expect(response.status(), `sign-in of ${user.username}: ${await response.text()}`).toBe(200);
}

/** The signed-in user of a browser context, as the server sees it. */
export async function sessionOf(context: BrowserContext): Promise<Me | null> {
  const response = await context.request.get('/api/auth/session');
  expect(response.status()).toBe(200);
  return sessionSchema.parse(await response.json()).user;
}

/**
 * Fails on any axe violation of impact serious or critical, listing each readably. It waits for the page's
 * finite animations to end first: axe reads colours as painted, and a dialog still fading in is paler
 * than it will be. Endless ones (a spinner, a skeleton's pulse) are not waited for.
 */
export async function expectNoA11yViolations(page: Page, label?: string): Promise<void> {
  await page.waitForFunction(
    () =>
      (globalThis as unknown as PageGlobals).document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 5_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const report = serious
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 5)
        .map(
          (node) =>
            `    - ${node.target.join(' ')}\n      ${node.failureSummary?.replace(/\n/g, '\n      ') ?? ''}`,
        )
        .join('\n');
      return `[${violation.impact ?? 'unknown'}] ${violation.id}: ${violation.help}\n  ${violation.helpUrl}\n${nodes}`;
    })
    .join('\n\n');
  expect(serious.length, `axe on ${label ?? page.url()}:\n${report}`).toBe(0);
}

/** Runs the operator CLI with the server's environment (same DATA_DIR / DATABASE_URL). */
export async function runCli(...args: string[]): Promise<CliResult> {
  const env = JSON.parse(requiredEnv(envNames.serverEnv)) as Record<string, string>;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', ...args],
      { cwd: repoRoot, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Fixtures {
  /** This test's own client address, sent as X-Forwarded-For by its default context. */
  clientIp: string;
  /** The server's base URL (never undefined here). */
  appURL: string;
  createUser: (overrides?: Partial<NewUser>) => Promise<TestUser>;
  login: (page: Page, user: Credentials, identifier?: 'username' | 'email') => Promise<void>;
  cli: (...args: string[]) => Promise<CliResult>;
  /** Runs the CLI and fails the test unless it exits 0. */
  cliOk: (...args: string[]) => Promise<CliResult>;
  readMail: (to: string, options?: ReadMailOptions) => Promise<Mail>;
  /** A page in a new browser context (its own cookies and client IP), closed after the test. */
  newPage: () => Promise<Page>;
  /**
   * An API client signed in as the user, from a client address of its own, for set-up the test does not
   * watch happen in a browser. One per user per test; disposed after the test.
   */
  apiAs: (user: Credentials) => Promise<APIRequestContext>;
  /** Writes a post as the user through the API (multipart when it has images); returns it. */
  createPost: (author: Credentials, post?: NewPost) => Promise<PostView>;
  /** Comments on a post (or replies to a comment) as the user through the API; returns the comment. */
  createComment: (
    author: Credentials,
    postId: string,
    body: string,
    parentId?: string,
  ) => Promise<Comment>;
  /** Makes `follower` follow `followed` through the API. */
  follow: (follower: Credentials, followed: { uid: string }) => Promise<void>;
}

/** The fixtures every spec gets, for helpers that take some of them. */
export type HearthFixtures = Fixtures;

let postCounter = 0;

/** A post text no other test writes, so a spec can find its post among everyone's. */
export function uniquePostText(prefix = 'Post'): string {
  postCounter += 1;
  return `${prefix} ${uniqueSuffix()}-${String(postCounter)} ${randomLetters(8)}`;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  clientIp: async ({}, use) => {
    await use(uniqueIp());
  },
  extraHTTPHeaders: async ({ clientIp }, use) => {
    await use({ 'X-Forwarded-For': clientIp });
  },
  appURL: async ({ baseURL }, use) => {
    await use(baseURL ?? requiredEnv(envNames.baseUrl));
  },
  createUser: async ({ playwright, appURL }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (overrides = {}) => {
      const input = newUserInput(overrides);
      const request = await isolatedRequest(playwright.request, appURL);
      contexts.push(request);
      const response = await request.post('/api/auth/sign-up', { data: input });
      expect(response.status(), `sign-up of ${input.username}: ${await response.text()}`).toBe(201);
      const { user } = signUpResponseSchema.parse(await response.json());
      expect(user.username).toBe(input.username.toLowerCase());
      return { ...input, uid: user.uid, displayName: displayNameOf(user), user };
    });
    await Promise.all(contexts.map((context) => context.dispose()));
  },
  login: async ({ appURL }, use) => {
    await use(async (page, user, identifier = 'username') => {
      await signInViaApi(page.context(), appURL, user, identifier);
    });
  },
  // eslint-disable-next-line no-empty-pattern
  cli: async ({}, use) => {
    await use(runCli);
  },
  // eslint-disable-next-line no-empty-pattern
  cliOk: async ({}, use) => {
    await use(async (...args) => {
      const result = await runCli(...args);
      expect(
        result.code,
        `cli ${args.join(' ')}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
      ).toBe(0);
      return result;
    });
  },
  // eslint-disable-next-line no-empty-pattern
  readMail: async ({}, use) => {
    const dir = requiredEnv(envNames.mailDir);
    await use((to, options) => waitForMail(dir, to, options));
  },
  newPage: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext({
        extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() },
      });
      contexts.push(context);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  apiAs: async ({ playwright, appURL }, use) => {
    const clients = new Map<string, APIRequestContext>();
    await use(async (user) => {
      const known = clients.get(user.username);
      if (known) return known;
      const request = await isolatedRequest(playwright.request, appURL);
      clients.set(user.username, request);
      const response = await request.post('/api/auth/sign-in', {
        data: { identifier: user.username, password: user.password },
      });
      expect(response.status(), `sign-in of ${user.username}: ${await response.text()}`).toBe(200);
      return request;
    });
    await Promise.all([...clients.values()].map((client) => client.dispose()));
  },
  createPost: async ({ apiAs }, use) => {
    await use(async (author, post = {}) => {
      const request = await apiAs(author);
      const body = post.body ?? uniquePostText();
      const images = post.images ?? [];
      const response =
        images.length === 0
          ? await request.post('/api/posts', { data: { body } })
          : await request.post('/api/posts', {
              multipart: Object.fromEntries([
                ['body', body],
                ...images.flatMap(({ alt }, index) => (alt ? [[`alt${String(index)}`, alt]] : [])),
                ...images.map(({ file }, index) => [`image${String(index)}`, file]),
              ]) as Record<string, string | UploadFile>,
            });
      expect(response.status(), `post by ${author.username}: ${await response.text()}`).toBe(201);
      return postViewSchema.parse(await response.json());
    });
  },
  createComment: async ({ apiAs }, use) => {
    await use(async (author, postId, body, parentId) => {
      const request = await apiAs(author);
      const response = await request.post(`/api/posts/${postId}/comments`, {
        data: parentId ? { body, parentId } : { body },
      });
      expect(response.status(), `comment by ${author.username}: ${await response.text()}`).toBe(
        201,
      );
      return commentSchema.parse(await response.json());
    });
  },
  follow: async ({ apiAs }, use) => {
    await use(async (follower, followed) => {
      const request = await apiAs(follower);
      const response = await request.put(`/api/users/${followed.uid}/follow`);
      expect(response.status(), `follow by ${follower.username}: ${await response.text()}`).toBe(
        200,
      );
    });
  },
});
