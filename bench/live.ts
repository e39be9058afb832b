/**
 * The live delivery benchmark of `npm run bench` (issue 13 §4), also run alone with BENCH_ONLY=live.
 *
 * On the seed with 10,000 posts (the same people and follows as the full one; delivery does not read the
 * posts it does not send), it opens 1,000 then 5,000 WebSocket clients (anonymous: both topics are public), each
 * subscribed to one post and to the feed; then, for a like of that post and for a new post, sent through
 * the HTTP API, it measures per socket the delay from the moment the write is sent to the moment the
 * socket receives the post's new document (like) or the feed's `created` change (new post), and reports
 * p50 and p99 over every socket and round, and the server's resident memory per 1,000 sockets. Each kind of
 * event first has one round that is not counted: the first like after thousands of sockets opened finds
 * cold code and a garbage collector catching up, as the HTTP scenarios' first seconds would.
 *
 * The clients live in worker threads (live-clients.ts), so the load generator is not what is measured.
 *
 * Settings (environment): BENCH_LIVE_SOCKETS, comma-separated socket counts (1000,5000);
 * BENCH_LIVE_ROUNDS, likes and posts per count (4, one per bench account); BENCH_CPU_PROF and
 * BENCH_NODE_ARGS as in load.ts.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { realtimePath } from '../src/shared/realtime-protocol.js';
import { copyOf, databaseName, loadLine } from './database-copy.js';
import type { WorkerCommand, WorkerReply, WorkerSetup } from './live-clients.js';
import type { SeededDatabase } from './seed.js';
import { cpuSeconds, request, serverNodeArgs, signIn, startServer } from './server.js';

const counts = (process.env.BENCH_LIVE_SOCKETS ?? '1000,5000')
  .split(',')
  .map(Number)
  .filter((count) => Number.isInteger(count) && count > 0)
  .sort((a, b) => a - b);
const rounds = Math.max(1, Number(process.env.BENCH_LIVE_ROUNDS) || 4);
/** Worker threads holding the clients: two keep up with 5,000 sockets on a 2-core machine. */
const workerCount = 2;
/** Below the server's sockets per address (realtimeLimits.socketsPerIp). */
const socketsPerAddress = 40;
/** How long every socket has to receive an event before the missing ones are counted as lost. */
const deliveryTimeoutMs = 10_000;
/** Quiet time between events, so one event's frames never count for the next. */
const settleMs = 300;
/** Issue 13 §4: delivery p99 at 5,000 sockets. */
const budget = { sockets: 5_000, p99Ms: 100 };

const now = () => performance.timeOrigin + performance.now();

/** Resident memory of a process in bytes, from /proc on Linux; null elsewhere. */
function rssBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/**
 * A worker thread and a one-reply-per-command channel to it. The worker's TypeScript is loaded through
 * tsx's API: the loader this process was started with does not reach a worker's entry module.
 */
function startWorker(setup: WorkerSetup) {
  const entry = new URL('./live-clients.ts', import.meta.url).href;
  const loader =
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
    `.then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(loader, { eval: true, workerData: setup });
  const pending: { resolve(reply: WorkerReply): void; reject(error: Error): void }[] = [];
  let failed: Error | null = null;
  const fail = (error: Error) => {
    failed ??= error;
    for (const waiter of pending.splice(0)) waiter.reject(error);
  };
  worker.on('message', (reply: WorkerReply) => pending.shift()?.resolve(reply));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the client worker exited with code ${code}`)));
  const ask = <T extends WorkerReply['type']>(command: WorkerCommand, expect: T) =>
    new Promise<Extract<WorkerReply, { type: T }>>((resolve, reject) => {
      if (failed) {
        reject(failed);
        return;
      }
      pending.push({
        resolve: (reply) => {
          if (reply.type === expect) resolve(reply as Extract<WorkerReply, { type: T }>);
          else reject(new Error(`the client worker answered ${reply.type}, not ${expect}`));
        },
        reject,
      });
      worker.postMessage(command);
    });
  return { ask, stop: () => worker.terminate() };
}

type ClientWorker = ReturnType<typeof startWorker>;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Delivery {
  p50: number;
  p99: number;
  max: number;
  samples: number;
  lost: number;
  /** The server's CPU time per event (user and system, every thread), NaN where /proc is not there. */
  cpuMs: number;
}

/** Delays of one kind of event over several rounds, from every socket. */
async function measure(
  serverPid: number,
  workers: ClientWorker[],
  topic: string,
  marker: string,
  write: (round: number) => Promise<Response>,
): Promise<Delivery> {
  const delays: number[] = [];
  let lost = 0;
  let cpu = 0;
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));
  await settle();
  // Round 0 warms up and is not counted, as the HTTP scenarios' warm-up is not.
  for (let round = 0; round <= rounds; round += 1) {
    await Promise.all(workers.map((worker) => worker.ask({ type: 'arm', topic, marker }, 'armed')));
    const cpuBefore = cpuSeconds(serverPid);
    const sent = now();
    const response = await write(round);
    if (!response.ok) {
      throw new Error(
        `the write answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    }
    const replies = await Promise.all(
      workers.map((worker) =>
        worker.ask({ type: 'collect', timeoutMs: deliveryTimeoutMs }, 'arrivals'),
      ),
    );
    // The settling time counts towards the event's CPU: frames may still be leaving for other topics.
    await settle();
    const cpuAfter = cpuSeconds(serverPid);
    if (round === 0) continue;
    cpu += cpuBefore === null || cpuAfter === null ? Number.NaN : cpuAfter - cpuBefore;
    for (const { times } of replies) {
      for (const arrived of times) {
        if (Number.isNaN(arrived)) lost += 1;
        else delays.push(arrived - sent);
      }
    }
  }
  delays.sort((a, b) => a - b);
  return {
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    max: delays.at(-1) ?? Number.NaN,
    samples: delays.length,
    lost,
    cpuMs: (cpu / rounds) * 1000,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Runs the live delivery benchmark on a fresh copy of `seeded` and prints its figures. */
export async function runLive(seeded: SeededDatabase): Promise<void> {
  console.log(`\nLive delivery on ${databaseName} (WebSocket, ${workerCount} client threads):`);
  console.log(loadLine('before the live block'));
  const copy = await copyOf(seeded);
  const lines: string[] = [];
  try {
    const server = await startServer({
      dataDir: copy.dataDir,
      ...(copy.databaseUrl ? { databaseUrl: copy.databaseUrl } : {}),
      nodeArgs: serverNodeArgs(),
    });
    const workers: ClientWorker[] = [];
    try {
      const cookies = await signIn(server, seeded.accounts);
      const postId = String(seeded.showcasePostId);
      const postTopic = `posts/${postId}`;
      const setup: WorkerSetup = {
        url: `${server.url.replace(/^http/, 'ws')}${realtimePath}`,
        origin: server.origin,
        topics: [postTopic, 'feed'],
        perAddress: socketsPerAddress,
      };
      for (let i = 0; i < workerCount; i += 1) workers.push(startWorker(setup));
      const rssIdle = rssBytes(server.pid);
      let open = 0;
      /** Whether each account likes the post now: a round likes it, or takes an earlier like back. */
      const likes = cookies.map(() => false);
      for (const target of counts) {
        const adding = target - open;
        const share = Math.ceil(adding / workerCount);
        const opened = await Promise.all(
          workers.map((worker, i) => {
            const count = Math.max(0, Math.min(share, adding - i * share));
            return worker.ask({ type: 'open', count, firstIndex: open + i * share }, 'opened');
          }),
        );
        const failures = opened.reduce((sum, reply) => sum + reply.failures, 0);
        if (failures > 0) {
          const reason = opened.find((reply) => reply.firstError)?.firstError ?? 'unknown';
          throw new Error(`${failures} of ${adding} sockets did not open: ${reason}`);
        }
        open = target;
        const rss = rssBytes(server.pid);

        // Each round changes the post: an account likes it, or takes its earlier like back.
        const like = await measure(server.pid, workers, postTopic, '', (round) => {
          const account = round % cookies.length;
          const method = likes[account] ? 'DELETE' : 'PUT';
          likes[account] = !likes[account];
          return request(server, method, `/api/posts/${postId}/like`, undefined, cookies[account]);
        });
        const post = await measure(server.pid, workers, 'feed', '"kind":"created"', (round) =>
          request(
            server,
            'POST',
            '/api/posts',
            { body: `Live delivery benchmark, ${target} sockets, round ${round + 1}.` },
            cookies[round % cookies.length],
          ),
        );

        const perThousand =
          rss === null || rssIdle === null ? null : ((rss - rssIdle) / target) * 1000;
        const verdict =
          target === budget.sockets
            ? ` (budget p99 ≤ ${budget.p99Ms} ms: ` +
              `${Math.max(like.p99, post.p99) <= budget.p99Ms && like.lost + post.lost === 0 ? 'met' : 'MISSED'})`
            : '';
        const row = (label: string, d: Delivery) =>
          `    ${label} p50 ${ms(d.p50)}, p99 ${ms(d.p99)}, max ${ms(d.max)} over ${d.samples.toLocaleString('en')} deliveries, ` +
          `server CPU ${Number.isNaN(d.cpuMs) ? 'n/a' : ms(d.cpuMs)} per event` +
          (d.lost > 0 ? `, ${d.lost.toLocaleString('en')} LOST` : '');
        lines.push(
          `  ${target.toLocaleString('en')} sockets, each on ${postTopic} and feed, ${rounds} rounds${verdict}:`,
          row('like:    ', like),
          row('new post:', post),
          `    server RSS ${rss === null ? 'n/a' : `${(rss / 2 ** 20).toFixed(0)} MB`}` +
            (perThousand === null
              ? ''
              : `, ${(perThousand / 2 ** 20).toFixed(1)} MB per 1,000 sockets over the idle ${((rssIdle ?? 0) / 2 ** 20).toFixed(0)} MB`),
        );
        process.stdout.write(`  live: ${target.toLocaleString('en')} sockets done\n`);
      }
      await Promise.all(workers.map((worker) => worker.ask({ type: 'close' }, 'closed')));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await server.stop();
    }
  } finally {
    await copy.dispose();
  }
  for (const line of lines) console.log(line);
  console.log(loadLine('after the live block'));
}
