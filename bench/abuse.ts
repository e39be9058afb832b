/**
 * `npm run bench:abuse`: the built server under the abuse of the hardening issue, with production settings
 * (rate limits on, Redis, one trusted proxy hop so the attacker can come from many addresses). Phases:
 * paused WebSocket readers while others like posts, subscribe churn, pages of `$\``/`$&` text, JSON nested
 * tens of thousands deep, and Redis killed mid-run. Throughout, it probes `GET /api/health` and samples the
 * server's RSS, and prints per phase the answers by status class, the health latency and the peak RSS
 * against the budgets (RSS < 500 MB, health p99 < 50 ms, no 5xx).
 *
 * Settings (environment): ABUSE_PHASE_SECONDS (15), ABUSE_PAUSED_SOCKETS (20), ABUSE_ONLY (a comma-separated
 * list of readers, churn, pages, json, redis).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { OwnRedisServer } from '../src/server/test/redis-server.js';
import { cookieHeader, startServer, type RunningServer } from './server.js';

const phaseSeconds = Number(process.env.ABUSE_PHASE_SECONDS) || 15;
const pausedSockets = Number(process.env.ABUSE_PAUSED_SOCKETS) || 20;
const only = process.env.ABUSE_ONLY?.split(',').filter(Boolean);
const budget = { rssMb: 500, healthP99Ms: 50 };

let addressCounter = 0;
/** A new client network from the IPv6 documentation range (limits count per /64): the attacker owns many. */
function nextAddress(): string {
  addressCounter += 1;
  return `2001:db8:${(addressCounter >> 16).toString(16)}:${(addressCounter & 0xffff).toString(16)}::1`;
}

interface PhaseStats {
  name: string;
  statuses: Map<string, number>;
  health: number[];
  peakRssMb: number;
  notes: string[];
}

let current: PhaseStats | undefined;
const phases: PhaseStats[] = [];

function count(label: string, by = 1) {
  if (!current) return;
  current.statuses.set(label, (current.statuses.get(label) ?? 0) + by);
}

/** One HTTP request from a fresh attacker address; counts its status class in the current phase. */
async function hit(
  server: RunningServer,
  method: string,
  pathname: string,
  options: { body?: string; cookie?: string; contentType?: string; address?: string } = {},
): Promise<Response | null> {
  const headers: Record<string, string> = {
    origin: server.origin,
    'x-forwarded-for': options.address ?? nextAddress(),
  };
  if (options.body !== undefined)
    headers['content-type'] = options.contentType ?? 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  try {
    const response = await fetch(`${server.url}${pathname}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: AbortSignal.timeout(10_000),
    });
    count(`${String(response.status).slice(0, 1)}xx`);
    if (response.status >= 500) count(`5xx ${method} ${pathname.split('?')[0] ?? ''}`);
    return response;
  } catch (error) {
    count(`network error (${error instanceof Error ? error.name : 'unknown'})`);
    return null;
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Probes /api/health sequentially and samples RSS, into whichever phase is current, until stopped. */
function startProbes(server: RunningServer): () => Promise<void> {
  const state = { running: true };
  const health = (async () => {
    while (state.running) {
      const started = performance.now();
      try {
        const response = await fetch(`${server.url}/api/health`, {
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (!response.ok) current?.notes.push(`health answered ${response.status}`);
      } catch {
        current?.notes.push('health did not answer');
      }
      current?.health.push(performance.now() - started);
      await sleep(20);
    }
  })();
  const memory = (async () => {
    while (state.running) {
      if (current) current.peakRssMb = Math.max(current.peakRssMb, rssMb(server.pid));
      await sleep(100);
    }
  })();
  return async () => {
    state.running = false;
    await Promise.all([health, memory]);
  };
}

/** The `n`-th item of a non-empty list, wrapping around. */
function nth<T>(items: readonly T[], n: number): T {
  const item = items[n % items.length];
  if (item === undefined) throw new Error('empty list');
  return item;
}

/** Runs `work` until the phase's time is up, as the current phase. */
async function phase(
  key: string,
  name: string,
  work: (until: number) => Promise<void>,
): Promise<void> {
  if (only && !only.includes(key)) return;
  const stats: PhaseStats = { name, statuses: new Map(), health: [], peakRssMb: 0, notes: [] };
  phases.push(stats);
  current = stats;
  process.stdout.write(`- ${name}…\n`);
  await work(Date.now() + phaseSeconds * 1000);
}

/** Runs `workers` copies of `loop` until `until`. */
async function parallel(workers: number, until: number, loop: (worker: number) => Promise<void>) {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (Date.now() < until) await loop(worker);
    }),
  );
}

/** A client WebSocket frame (masked, as clients must send them). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i += 1) masked[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([header, mask, masked]);
}

/**
 * Opens /api/realtime over a raw TCP socket, subscribes to `topics`, then stops reading: the reader that
 * made the server buffer every update.
 */
async function pausedReader(server: RunningServer, topics: string[]): Promise<net.Socket> {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.write(
    [
      'GET /api/realtime HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      `Origin: ${server.origin}`,
      `X-Forwarded-For: ${nextAddress()}`,
      '',
      '',
    ].join('\r\n'),
  );
  const answer = await new Promise<string>((resolve) => {
    socket.once('data', (data: Buffer) => resolve(data.toString('latin1')));
    socket.once('close', () => resolve(''));
  });
  socket.on('error', () => undefined);
  if (!answer.startsWith('HTTP/1.1 101')) {
    count(`realtime upgrade refused (${answer.slice(9, 12) || 'closed'})`);
    socket.destroy();
    return socket;
  }
  for (const topic of topics)
    socket.write(clientFrame(JSON.stringify({ type: 'subscribe', topic })));
  socket.pause();
  return socket;
}

async function main() {
  const load = loadavg().map((value) => value.toFixed(2));
  console.log(`Hearth abuse benchmark: ${cpus().length} cores, load average ${load.join(' ')}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-abuse-'));
  const redis = await OwnRedisServer.onFreePort();
  await redis.start();
  const errorLines: string[] = [];
  let partialLine = '';
  const server = await startServer({
    dataDir,
    onLog: (chunk) => {
      const lines = (partialLine + chunk).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) if (/"level":(5|6)\d/.test(line)) errorLines.push(line);
    },
    env: {
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      REDIS_URL: redis.url,
      REDIS_PREFIX: `hearth-abuse-${randomBytes(4).toString('hex')}:`,
    },
  });
  const stopProbes = startProbes(server);
  const sockets: net.Socket[] = [];
  try {
    // People: each signs up from an address of their own, as separate households would.
    const people: { uid: string; username: string; cookie: string }[] = [];
    for (let n = 0; n < 20; n += 1) {
      const tag = `${randomBytes(3).toString('hex')}${n}`;
      const response = await hit(server, 'POST', '/api/auth/sign-up', {
        body: JSON.stringify({
          email: `abuse_${tag}@example.test`,
          username: `abuse_${tag}`,
          password: `a long secret ${tag}`,
          firstName: 'Abuse',
          lastName: String(n),
        }),
      });
      if (response?.status !== 201) throw new Error(`sign-up answered ${response?.status}`);
      const { user } = (await response.json()) as { user: { uid: string; username: string } };
      people.push({ uid: user.uid, username: user.username, cookie: cookieHeader(response) });
    }
    const [owner] = people;
    if (!owner) throw new Error('no people');
    const postIds: string[] = [];
    const dollarBody = '$`$&'.repeat(1_250);
    for (const [n, person] of people.entries()) {
      const body = n === 0 ? dollarBody : `Post ${n} `.padEnd(4_900, 'lorem ipsum ');
      const response = await hit(server, 'POST', '/api/posts', {
        body: JSON.stringify({ body }),
        cookie: person.cookie,
      });
      if (response?.status !== 201) throw new Error(`create post answered ${response?.status}`);
      postIds.push(((await response.json()) as { id: string }).id);
    }
    const bio = await hit(server, 'PATCH', `/api/users/${owner.uid}/profile`, {
      body: JSON.stringify({ bio: "$&$`$'".repeat(83) }),
      cookie: owner.cookie,
    });
    if (bio?.status !== 200) throw new Error(`profile update answered ${bio?.status}`);

    const normalPage = await (await fetch(`${server.url}/post/${postIds[1]}`)).text();

    await phase(
      'readers',
      `${pausedSockets} paused readers while 20 people like posts`,
      async (until) => {
        const topics = ['feed', ...postIds.map((id) => `posts/${id}`)];
        for (let n = 0; n < pausedSockets; n += 1) sockets.push(await pausedReader(server, topics));
        await parallel(people.length, until, async (worker) => {
          const person = nth(people, worker);
          const post = nth(postIds, Math.floor(Math.random() * postIds.length));
          await hit(server, 'PUT', `/api/posts/${post}/like`, {
            cookie: person.cookie,
            address: `2001:db8:ffff:${worker}::1`,
          });
          await hit(server, 'DELETE', `/api/posts/${post}/like`, {
            cookie: person.cookie,
            address: `2001:db8:ffff:${worker}::1`,
          });
        });
        // Read again: a socket the server dropped ends once what the kernel still holds is drained.
        const ended = await Promise.all(
          sockets.map(
            (socket) =>
              new Promise<boolean>((resolve) => {
                if (socket.destroyed) resolve(true);
                socket.once('close', () => resolve(true));
                socket.once('end', () => resolve(true));
                setTimeout(() => resolve(false), 3_000);
                socket.resume();
              }),
          ),
        );
        const dropped = ended.filter(Boolean).length;
        current?.notes.push(`${dropped} of ${sockets.length} paused sockets dropped by the server`);
      },
    );
    for (const socket of sockets.splice(0)) socket.destroy();

    await phase('churn', 'subscribe/unsubscribe churn from 10 sockets', async (until) => {
      let refused = 0;
      let closedByServer = 0;
      await parallel(10, until, async () => {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/realtime`, {
          headers: { origin: server.origin, 'x-forwarded-for': nextAddress() },
        });
        const opened = await new Promise<boolean>((resolve) => {
          socket.once('open', () => resolve(true));
          socket.once('unexpected-response', () => resolve(false));
          socket.once('error', () => resolve(false));
        });
        if (!opened) {
          refused += 1;
          socket.terminate();
          await sleep(200);
          return;
        }
        socket.on('error', () => undefined);
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        while (Date.now() < until && socket.readyState === WebSocket.OPEN) {
          for (let n = 0; n < 50; n += 1) {
            const topic = `posts/${postIds[n % postIds.length]}`;
            socket.send(JSON.stringify({ type: 'subscribe', topic }));
            socket.send(JSON.stringify({ type: 'unsubscribe', topic }));
          }
          count('realtime messages sent', 100);
          await sleep(1);
        }
        if (socket.readyState !== WebSocket.OPEN) closedByServer += 1;
        socket.terminate();
        await closed;
      });
      current?.notes.push(`${closedByServer} churning sockets closed by the server`);
      current?.notes.push(`${refused} upgrades refused`);
    });

    await phase('pages', 'pages of `$`/`$&` text, 10 readers', async (until) => {
      let largest = 0;
      await parallel(10, until, async (worker) => {
        const pathname = worker % 2 === 0 ? `/post/${postIds[0]}` : `/${owner.username}`;
        const response = await hit(server, 'GET', pathname);
        if (response) largest = Math.max(largest, (await response.arrayBuffer()).byteLength);
      });
      current?.notes.push(
        `largest page ${(largest / 1024).toFixed(1)} KB (a normal post page: ${(normalPage.length / 1024).toFixed(1)} KB)`,
      );
    });

    await phase(
      'json',
      'JSON nested 30,000 deep at sign-in and posts, 5 senders',
      async (until) => {
        const deepArray = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
        const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
        await parallel(5, until, async (worker) => {
          const body = worker % 2 === 0 ? deepArray : deepObject;
          await hit(server, 'POST', '/api/auth/sign-in', { body });
          await hit(server, 'POST', '/api/posts', { body, cookie: nth(people, worker).cookie });
        });
      },
    );

    await phase('redis', 'Redis killed: reads, likes and posts go on', async (until) => {
      await redis.kill();
      let readyRefused = 0;
      await parallel(10, until, async (worker) => {
        const person = nth(people, worker);
        const post = nth(postIds, worker);
        await hit(server, 'GET', '/api/feed?tab=everyone');
        await hit(server, 'PUT', `/api/posts/${post}/like`, { cookie: person.cookie });
        await hit(server, 'DELETE', `/api/posts/${post}/like`, { cookie: person.cookie });
        const ready = await fetch(`${server.url}/api/ready`);
        if (ready.status === 503) readyRefused += 1;
        await sleep(50);
      });
      current?.notes.push(`/api/ready answered 503 ${readyRefused} times while Redis was down`);
      await redis.start();
      let readyAgain = false;
      for (let tries = 0; tries < 100 && !readyAgain; tries += 1) {
        readyAgain = (await fetch(`${server.url}/api/ready`)).status === 200;
        if (!readyAgain) await sleep(100);
      }
      current?.notes.push(
        `/api/ready ${readyAgain ? 'answered 200 again' : 'stayed unready'} after Redis returned`,
      );
    });
  } finally {
    current = undefined;
    await stopProbes();
    for (const socket of sockets) socket.destroy();
    await server.stop();
    await redis.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log('');
  console.log(
    'phase'.padEnd(58) +
      'answers'.padStart(9) +
      '5xx'.padStart(6) +
      'health p50'.padStart(12) +
      'p99 ms'.padStart(8) +
      'peak RSS MB'.padStart(13),
  );
  let failures = 0;
  for (const stats of phases) {
    const total = [...stats.statuses.entries()]
      .filter(([label]) => /^\dxx$/.test(label))
      .reduce((sum, [, value]) => sum + value, 0);
    const serverErrors = stats.statuses.get('5xx') ?? 0;
    const p99 = percentile(stats.health, 99);
    console.log(
      stats.name.padEnd(58) +
        String(total).padStart(9) +
        String(serverErrors).padStart(6) +
        percentile(stats.health, 50).toFixed(1).padStart(12) +
        p99.toFixed(1).padStart(8) +
        stats.peakRssMb.toFixed(0).padStart(13),
    );
    const classes = [...stats.statuses.entries()]
      .map(([label, value]) => `${label}: ${value}`)
      .join(', ');
    console.log(`    ${classes}`);
    for (const note of stats.notes.slice(0, 5)) console.log(`    ${note}`);
    if (serverErrors > 0 || p99 > budget.healthP99Ms || stats.peakRssMb > budget.rssMb)
      failures += 1;
  }
  process.exitCode = failures === 0 ? 0 : 1;
  console.log(`\nserver log lines at level error or above: ${errorLines.length}`);
  for (const line of errorLines.slice(0, 3)) console.log(`    ${line.slice(0, 300)}`);
  const after = loadavg().map((value) => value.toFixed(2));
  console.log(
    `\nbudgets: RSS < ${budget.rssMb} MB, health p99 < ${budget.healthP99Ms} ms, no 5xx — ${
      failures === 0 ? 'met in every phase' : `MISSED in ${failures} phase(s)`
    }; load average after ${after.join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
