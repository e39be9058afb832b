/**
 * `npm run bench`: the load benchmark of issue posts §8. Seeds (or reuses) a database of 10,000 users,
 * 1,000,000 posts, 200 follows each, comments and likes; starts the built server on a copy of it as a
 * child process (NODE_ENV=production, RATE_LIMITS=off); loads each scenario with autocannon; and prints
 * req/s, p50 and p99, the ratio to a bare route measured in the same run, and the budgets.
 *
 * Post search (issue: notifications and search §3) runs on the same 1,000,000 posts: a common word typed
 * as a prefix, a rare word, a phrase, one person's posts with `from:`, and people by a name prefix.
 *
 * Then the same for the Following feed on a database with the same people and 10,000 posts, to show how
 * the feed's latency grows with the number of posts.
 *
 * Settings (environment): BENCH_DURATION seconds per scenario (10), BENCH_WARMUP seconds before each (2),
 * BENCH_CONNECTIONS (10), BENCH_ONLY=comma-separated scenario keys, BENCH_CPU_PROF=<dir> to write a
 * V8 CPU profile of the server.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { fullPlan, rareWord, seededDatabase, smallPlan, type SeededDatabase } from './seed.js';
import { cookieHeader, request, startServer, type RunningServer } from './server.js';

const seconds = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const duration = seconds('BENCH_DURATION', 10);
const warmup = seconds('BENCH_WARMUP', 2);
const connections = seconds('BENCH_CONNECTIONS', 10);
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const profileDir = process.env.BENCH_CPU_PROF;
/** USER_HZ: the unit of the CPU times in /proc/<pid>/stat, 100 on every Linux platform Node supports. */
const clockTicksPerSecond = 100;
/** Load average per CPU, before the run, above which other work on the machine distorts the figures. */
const busyLoad = 0.75;

interface Budget {
  minRps?: number;
  maxP99Ms?: number;
}

interface Scenario {
  key: string;
  title: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The path of the n-th request. */
  path(n: number): string;
  body?(n: number): string;
  signedIn: boolean;
  budget?: Budget;
}

interface Measurement {
  scenario: Scenario;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU time per answered request, in microseconds (Linux only). */
  cpuMicros: number | null;
}

/** The budgets (SQLite, 2 cores shared with the load generator). */
const budgets = {
  following: { minRps: 3_000, maxP99Ms: 30 },
  profile: { minRps: 15_000 },
  post: { minRps: 8_000 },
  create: { maxP99Ms: 30 },
  /** Following-feed latency at 1,000,000 posts over that at 10,000. */
  growth: 1.3,
} as const;

function scenarios(seeded: SeededDatabase): Scenario[] {
  const post = seeded.showcasePostId;
  return [
    {
      key: 'bare',
      title: 'Bare route (GET /api/health)',
      method: 'GET',
      path: () => '/api/health',
      signedIn: false,
    },
    {
      key: 'everyone',
      title: 'Everyone feed, anonymous',
      method: 'GET',
      path: () => '/api/feed?tab=everyone',
      signedIn: false,
    },
    {
      key: 'following',
      title: 'Following feed, signed in',
      method: 'GET',
      path: () => '/api/feed?tab=following',
      signedIn: true,
      budget: budgets.following,
    },
    {
      key: 'post',
      title: `Single post (${seeded.plan.showcaseComments} comments)`,
      method: 'GET',
      path: () => `/api/posts/${post}`,
      signedIn: false,
      budget: budgets.post,
    },
    {
      key: 'comments',
      title: "  its comments' first page",
      method: 'GET',
      path: () => `/api/posts/${post}/comments`,
      signedIn: false,
      budget: budgets.post,
    },
    {
      key: 'profile',
      title: 'Profile by username',
      method: 'GET',
      path: (n) => `/api/users/by-username/${seeded.usernames[n % seeded.usernames.length] ?? ''}`,
      signedIn: false,
      budget: budgets.profile,
    },
    ...searchScenarios(seeded),
    {
      key: 'create',
      title: 'Create post, signed in',
      method: 'POST',
      path: () => '/api/posts',
      body: (n) => JSON.stringify({ body: `Benchmark post number ${n}, written under load.` }),
      signedIn: true,
      budget: budgets.create,
    },
    {
      key: 'like',
      title: 'Like, spread over posts',
      method: 'PUT',
      // A stride coprime with the post count visits every post before repeating one.
      path: (n) => `/api/posts/${1 + ((n * 7_919) % seeded.postCount)}/like`,
      signedIn: true,
    },
  ];
}

/** The search box's representative queries, over the seeded posts' words (seed.ts). */
function searchScenarios(seeded: SeededDatabase): Scenario[] {
  const posts = (q: (n: number) => string) => (n: number) =>
    `/api/search/posts?q=${encodeURIComponent(q(n))}`;
  const username = (n: number) => seeded.usernames[n % seeded.usernames.length] ?? '';
  return [
    {
      key: 'search-common',
      title: 'Search posts: common word (1 in 4 posts)',
      method: 'GET',
      path: posts(() => 'garden'),
      signedIn: true,
    },
    {
      key: 'search-rare',
      title: `Search posts: rare word (~100 posts)`,
      method: 'GET',
      path: posts(() => rareWord),
      signedIn: true,
    },
    {
      key: 'search-phrase',
      title: 'Search posts: "quiet river" (a phrase)',
      method: 'GET',
      path: posts(() => '"quiet river"'),
      signedIn: true,
    },
    {
      key: 'search-from',
      title: "Search posts: from:someone (one person's)",
      method: 'GET',
      path: posts((n) => `from:${username(n)}`),
      signedIn: true,
    },
    {
      key: 'search-from-word',
      title: 'Search posts: from:someone and a common word',
      method: 'GET',
      path: posts((n) => `from:${username(n)} garden`),
      signedIn: true,
    },
    {
      key: 'search-people',
      title: 'Search people: username prefix',
      method: 'GET',
      // bench_000.. to bench_099..: each prefix matches 100 people, ranked by followers.
      path: (n) => `/api/search/people?q=bench_0${String(n % 100).padStart(2, '0')}`,
      signedIn: false,
    },
  ];
}

/** One autocannon run of a scenario; every connection rotates through the signed-in accounts. */
async function load(
  server: RunningServer,
  scenario: Scenario,
  cookies: string[],
  runSeconds: number,
  counter: { n: number },
): Promise<Omit<Measurement, 'scenario'>> {
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({
    url: server.url,
    connections,
    duration: runSeconds,
    requests: [
      {
        setupRequest: (req) => {
          counter.n += 1;
          const n = counter.n;
          const headers: Record<string, string> = { origin: server.origin };
          if (scenario.signedIn) headers.cookie = cookies[n % cookies.length] ?? '';
          const body = scenario.body?.(n);
          if (body !== undefined) headers['content-type'] = 'application/json';
          return {
            ...req,
            method: scenario.method,
            path: scenario.path(n),
            headers,
            ...(body === undefined ? {} : { body }),
          };
        },
      },
    ],
  });
  const cpuAfter = cpuSeconds(server.pid);
  const answered = result['2xx'] + result.non2xx;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    cpuMicros:
      cpuBefore === null || cpuAfter === null || answered === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / answered,
  };
}

/**
 * CPU seconds the process has used (user + system), from /proc on Linux; null elsewhere. Divided by the
 * requests served, it is the server's cost per request, which other work on the machine barely skews.
 */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
  } catch {
    return null;
  }
}

/** Sends one request of the scenario and fails loudly when it is not a 2xx (a missing route, say). */
async function check(server: RunningServer, scenario: Scenario, cookies: string[]) {
  const body = scenario.body?.(0);
  const response = await request(
    server,
    scenario.method,
    scenario.path(0),
    body === undefined ? undefined : (JSON.parse(body) as unknown),
    scenario.signedIn ? cookies[0] : undefined,
  );
  if (!response.ok) {
    throw new Error(
      `${scenario.title}: ${scenario.method} ${scenario.path(0)} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
    );
  }
}

async function signIn(server: RunningServer, seeded: SeededDatabase): Promise<string[]> {
  const cookies: string[] = [];
  for (const account of seeded.accounts) {
    const response = await request(server, 'POST', '/api/auth/sign-in', {
      identifier: account.email,
      password: account.password,
    });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    cookies.push(cookieHeader(response));
  }
  return cookies;
}

/** Runs `keys` against a fresh copy of a seeded database. */
async function runOn(
  seeded: SeededDatabase,
  keys: string[],
  label: string,
): Promise<Map<string, Measurement>> {
  const runDir = mkdtempSync(path.join(tmpdir(), `hearth-bench-${seeded.plan.name}-`));
  const results = new Map<string, Measurement>();
  try {
    // A copy: the writes of one run never leak into the next.
    cpSync(seeded.dataDir, runDir, { recursive: true });
    const server = await startServer({
      dataDir: runDir,
      ...(profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    });
    try {
      const cookies = await signIn(server, seeded);
      const counter = { n: 0 };
      for (const scenario of scenarios(seeded).filter((s) => keys.includes(s.key))) {
        await check(server, scenario, cookies);
        await load(server, scenario, cookies, warmup, counter);
        const measured = await load(server, scenario, cookies, duration, counter);
        results.set(scenario.key, { scenario, ...measured });
        process.stdout.write(`  ${label}: ${scenario.title.trim()} done\n`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  return results;
}

const format = (value: number, digits = 0) =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function verdict(measurement: Measurement): string {
  const { budget } = measurement.scenario;
  if (!budget) return '';
  const parts: string[] = [];
  let met = true;
  if (budget.minRps !== undefined) {
    parts.push(`≥ ${format(budget.minRps)} req/s`);
    if (measurement.rps < budget.minRps) met = false;
  }
  if (budget.maxP99Ms !== undefined) {
    parts.push(`p99 ≤ ${budget.maxP99Ms} ms`);
    if (measurement.p99 > budget.maxP99Ms) met = false;
  }
  return `${parts.join(', ')}: ${met ? 'met' : 'MISSED'}`;
}

/** The search figures again, on their own, with the machine's load when they were taken. */
function printSearch(results: Map<string, Measurement>) {
  const searches = [...results.values()].filter((m) => m.scenario.key.startsWith('search-'));
  if (searches.length === 0) return;
  const [oneMinute = 0] = loadavg();
  console.log(
    `\nSearch on ${format(fullPlan.posts)} posts (SQLite FTS5), load average ${oneMinute.toFixed(1)} ` +
      `on ${cpus().length} CPUs after the run:`,
  );
  for (const m of searches) {
    console.log(
      `  ${m.scenario.title.padEnd(46)} p50 ${format(m.p50, 1)} ms, p99 ${format(m.p99, 1)} ms, ` +
        `${format(m.rps)} req/s` +
        (m.cpuMicros === null ? '' : `, server CPU ${format(m.cpuMicros)} µs/request`),
    );
  }
}

function printTable(results: Map<string, Measurement>) {
  const bare = results.get('bare');
  const rows = [...results.values()].map((m) => [
    m.scenario.title,
    format(m.rps),
    format(m.p50, 1),
    format(m.p99, 1),
    bare ? `${format(m.rps / bare.rps, 2)}×` : '',
    m.cpuMicros === null ? '' : format(m.cpuMicros),
    m.errors > 0 ? `${format(m.errors)} non-2xx!` : '',
    verdict(m),
  ]);
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'of bare', 'CPU µs', 'errors', 'budget'];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i === 0 || i >= 6 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** Figures from a machine busy with other work say little about Hearth: say so next to them. */
function warnIfBusy(when: string) {
  const [oneMinute = 0] = loadavg();
  if (oneMinute > busyLoad * cpus().length) {
    console.log(
      `WARNING: load average ${oneMinute.toFixed(1)} on ${cpus().length} CPUs ${when}: other processes ` +
        'compete with the server and the load generator, so these figures understate Hearth.',
    );
  }
}

async function main() {
  const started = Date.now();
  const full = await seededDatabase(fullPlan);
  const small = await seededDatabase(smallPlan);
  const keys = [
    'bare',
    'everyone',
    'following',
    'post',
    'comments',
    'profile',
    ...searchScenarios(full).map((scenario) => scenario.key),
    'create',
    'like',
  ].filter((key) => !only || only.includes(key));

  console.log(
    `\nLoad: ${connections} connections, ${warmup} s warm-up + ${duration} s per scenario, SQLite, ` +
      `Node ${process.version}, ${cpus().length} CPUs shared with the load generator (this process).`,
  );
  warnIfBusy('before the run');
  const big = await runOn(full, keys, '1,000,000 posts');
  const feedKeys = ['bare', 'following'].filter((key) => keys.includes(key));
  const few =
    feedKeys.length > 0
      ? await runOn(small, feedKeys, '10,000 posts')
      : new Map<string, Measurement>();

  console.log(
    `\nHearth on ${full.plan.users.toLocaleString('en')} users, ${full.plan.posts.toLocaleString('en')} posts, ` +
      `${full.plan.followsPerUser} follows each, ${full.plan.comments.toLocaleString('en')} comments, ` +
      `${full.plan.likes.toLocaleString('en')} likes`,
  );
  printTable(big);
  printSearch(big);

  const feedBig = big.get('following');
  const feedSmall = few.get('following');
  if (feedBig && feedSmall) {
    const ratio50 = feedBig.p50 / feedSmall.p50;
    const ratio99 = feedBig.p99 / feedSmall.p99;
    console.log(`\nFollowing feed, same people and follows, 10,000 posts against 1,000,000:`);
    const line = (label: string, m: Measurement) =>
      `  ${label} ${format(m.rps)} req/s, p50 ${format(m.p50, 1)} ms, p99 ${format(m.p99, 1)} ms` +
      (m.cpuMicros === null ? '' : `, server CPU ${format(m.cpuMicros)} µs/request`);
    console.log(line('10,000 posts:   ', feedSmall));
    console.log(line('1,000,000 posts:', feedBig));
    console.log(
      `  latency ratio: p50 ${format(ratio50, 2)}×, p99 ${format(ratio99, 2)}× ` +
        `(budget ≤ ${budgets.growth}× at p50: ${ratio50 <= budgets.growth ? 'met' : 'MISSED'})`,
    );
  }
  console.log(`\nTotal time ${format((Date.now() - started) / 1000)} s.`);
}

await main();
