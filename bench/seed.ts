/**
 * Seeds a SQLite database for the load benchmark (issue: posts §8): users following each other, posts,
 * comments and likes, with every counter (users.postCount, followerCount, followingCount; posts.likeCount,
 * commentCount; comments.replyCount) consistent with the rows it counts.
 *
 * The schema comes from the application's own migrations; rows are then written with prepared statements
 * in large transactions, the secondary indexes and triggers dropped first and rebuilt from their own
 * definitions after, which is minutes faster than inserting through them; the search index is then built
 * in one pass, as migration 0006 builds it for an existing database. A few real accounts are then created
 * through the public sign-up API of the built server, so the benchmark signs in as a browser would.
 *
 * The result is cached under bench/.cache, keyed by the seed plan, SEED_VERSION and the migration list, so
 * later runs reuse it; a run works on a copy and never changes the cache.
 *
 *   node --import tsx bench/seed.ts     # seed (or find) both databases and print where they are
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { extractHashtags } from '../src/shared/hashtags.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrator.js';
import { migrationProvider } from '../src/server/db/migrations/index.js';
import { repoRoot, request, startServer } from './server.js';

/** Bump when the generated data changes shape, so stale caches are not reused. */
const SEED_VERSION = 3;

export const cacheRoot = path.join(repoRoot, 'bench', '.cache');

export interface SeedPlan {
  name: string;
  users: number;
  followsPerUser: number;
  posts: number;
  /** Top-level comments spread at random over posts (the showcase post gets its own). */
  comments: number;
  /** Post likes spread at random over posts and users (each pair at most once). */
  likes: number;
  /** Comments on the showcase post that the single-post scenarios read. */
  showcaseComments: number;
  /** Real accounts made through the sign-up API, each following `followsPerUser` seeded users. */
  accounts: number;
}

/** The database: 10,000 users, 1,000,000 posts, each user following 200 others. */
export const fullPlan: SeedPlan = {
  name: 'full',
  users: 10_000,
  followsPerUser: 200,
  posts: 1_000_000,
  comments: 250_000,
  likes: 1_000_000,
  showcaseComments: 20,
  accounts: 4,
};

/** The same people and follows with 10,000 posts, for the feed-latency comparison. */
export const smallPlan: SeedPlan = {
  ...fullPlan,
  name: 'small',
  posts: 10_000,
  comments: 2_500,
  likes: 10_000,
};

export interface BenchAccount {
  uid: string;
  username: string;
  email: string;
  password: string;
}

export interface SeededDatabase {
  plan: SeedPlan;
  /** DATA_DIR holding hearth.db; treat as read-only (copy it before a run). */
  dataDir: string;
  accounts: BenchAccount[];
  /** The post with exactly `showcaseComments` comments. */
  showcasePostId: number;
  /** Seeded posts have ids 1..postCount. */
  postCount: number;
  /** Usernames of seeded users, for profile lookups. */
  usernames: string[];
  seededInSeconds: number;
}

const accountPassword = 'bench copper kettle lantern 4711';
const epoch = Date.UTC(2025, 0, 1);
const dayMs = 24 * 60 * 60 * 1000;
/** Posts are spread over this span before the epoch's anniversary; likes and comments follow their post. */
const postSpanMs = 365 * dayMs;
const rowsPerTransaction = 50_000;

/** mulberry32: a small, fast, seedable generator, so every run seeds the same data. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, below: (n: number) => Math.floor(next() * n) };
}

const idAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const firstNames = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Radia',
  'Tim',
];
const lastNames = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
];
const words = (
  'the a of and to in is on for with as at by from this that it we you they our garden bread river ' +
  'morning evening light market coffee walk bike train music book story friend neighbour street park ' +
  'rain sun snow autumn spring summer winter kitchen window harbour hill forest lantern kettle festival ' +
  'today tomorrow yesterday lovely quiet busy bright early late small large warm cold new old'
).split(' ');
/** A word only every `rareEvery`-th post has, for the benchmark's rare-word search. */
export const rareWord = 'aurora';
const rareEvery = 9_973;
const hashtags = [
  '#hearth',
  '#garden',
  '#cycling',
  '#bread',
  '#music',
  '#books',
  '#photo',
  '#local',
];

function text(random: ReturnType<typeof generator>, minWords: number, maxWords: number): string {
  const count = minWords + random.below(maxWords - minWords + 1);
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) parts.push(words[random.below(words.length)] ?? 'hello');
  if (random.next() < 0.1) parts.push(hashtags[random.below(hashtags.length)] ?? '#hearth');
  const sentence = parts.join(' ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A cache folder name for `what` seeded from `inputs`, with the seed version and the migration list. */
async function cacheKey(what: string, inputs: unknown): Promise<string> {
  const migrations = Object.keys(await migrationProvider.getMigrations()).sort();
  const digest = createHash('sha256')
    .update(JSON.stringify({ SEED_VERSION, inputs, migrations }))
    .digest('hex')
    .slice(0, 12);
  return `${what}-${digest}`;
}

/**
 * How many cached databases of one kind (`people`, `full`, `small`) are kept: the one in use and the one
 * used before it, so comparing two checkouts whose migrations differ does not seed anew on every switch.
 */
export const cachesKeptPerKind = 2;

/** Whether a process of this machine is running with this pid. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Marks the cache `dir` as used now, then removes the caches of its kind used least recently past
 * `cachesKeptPerKind`, and the folders of its kind left half-built by a run that is no longer running.
 * Each full seed is over a gigabyte, and every change of the migrations or of the seed makes a new one.
 */
function retireStaleCaches(dir: string, log: (line: string) => void): void {
  const now = new Date();
  utimesSync(dir, now, now);
  const kind = path.basename(dir).replace(/-[0-9a-f]{12}$/, '');
  const cached: { name: string; usedAt: number }[] = [];
  for (const name of readdirSync(cacheRoot)) {
    const match = /^(.+)-[0-9a-f]{12}(?:\.building-(\d+))?$/.exec(name);
    if (match?.[1] !== kind) continue;
    const builder = match[2];
    if (builder === undefined) {
      cached.push({ name, usedAt: statSync(path.join(cacheRoot, name)).mtimeMs });
    } else if (!isRunning(Number(builder))) {
      log(`Removing ${name}, left half-built by a run that stopped`);
      rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
    }
  }
  cached.sort((a, b) => b.usedAt - a.usedAt);
  for (const { name } of cached.slice(cachesKeptPerKind)) {
    if (path.join(cacheRoot, name) === dir) continue;
    log(`Removing the cached database ${name}, unused since two others were used`);
    rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
  }
}

/** Writes rows in transactions of `rowsPerTransaction`. */
function bulk<T>(db: SQLite.Database, rows: Iterable<T>, write: (row: T) => void): number {
  let count = 0;
  let batch: T[] = [];
  const flush = db.transaction((items: T[]) => {
    for (const item of items) write(item);
  });
  for (const row of rows) {
    batch.push(row);
    count += 1;
    if (batch.length === rowsPerTransaction) {
      flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) flush(batch);
  return count;
}

function* range(count: number): Generator<number> {
  for (let i = 0; i < count; i += 1) yield i;
}

/** The seeded people: the same for every plan with the same number of users and follows. */
interface People {
  userIds: string[];
  usernames: string[];
  /** followees[u * followsPerUser + k]: the k-th user `u` follows. */
  followees: Int32Array;
  followerCount: Int32Array;
}

function people(plan: SeedPlan): People {
  const random = generator(0x4ea27 + plan.users);
  const userIds: string[] = [];
  const usernames: string[] = [];
  for (let u = 0; u < plan.users; u += 1) {
    let id = '';
    for (let i = 0; i < 32; i += 1) id += idAlphabet.charAt(random.below(idAlphabet.length));
    userIds.push(id);
    usernames.push(`bench_${String(u).padStart(5, '0')}`);
  }
  const followees = new Int32Array(plan.users * plan.followsPerUser);
  const followerCount = new Int32Array(plan.users);
  const chosen = new Int32Array(plan.users).fill(-1);
  for (let u = 0; u < plan.users; u += 1) {
    for (let k = 0; k < plan.followsPerUser; k += 1) {
      let other = random.below(plan.users);
      while (other === u || chosen[other] === u) other = random.below(plan.users);
      chosen[other] = u;
      followees[u * plan.followsPerUser + k] = other;
      followerCount[other] = (followerCount[other] ?? 0) + 1;
    }
  }
  return { userIds, usernames, followees, followerCount };
}

/** Opens a database for bulk loading: no journal, no fsync (a half-written file is thrown away). */
function openForBulk(file: string): SQLite.Database {
  const db = new SQLite(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -1048576');
  db.pragma('temp_store = MEMORY');
  // Index builds sort with helper threads where SQLite was built to allow them.
  db.pragma('threads = 4');
  return db;
}

/**
 * Runs `load` with the secondary indexes of `tables` dropped, then rebuilds them from their own
 * definitions: sorting once is far faster than inserting millions of rows through every index.
 */
function withoutIndexes(db: SQLite.Database, tables: string[], load: () => void): number {
  const indexes = db
    .prepare<string[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')})`,
    )
    .all(...tables);
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  load();
  for (const index of indexes) db.exec(index.sql);
  return indexes.length;
}

/**
 * Runs `load` without the triggers that keep the search index current (one index write per row), then
 * restores them and builds the index from all posts at once.
 */
function withoutSearchTriggers(db: SQLite.Database, load: () => void): void {
  const triggers = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'posts'",
    )
    .all();
  for (const trigger of triggers) db.exec(`DROP TRIGGER "${trigger.name}"`);
  load();
  for (const trigger of triggers) db.exec(trigger.sql);
  db.exec("INSERT INTO posts_search (posts_search) VALUES ('rebuild')");
  // The index now holds every post: new ones are indexed in batches from here (migration 0009).
  db.exec('UPDATE search_state SET "indexedThrough" = (SELECT coalesce(max(id), 0) FROM posts)');
}

function stepLogger(log: (line: string) => void) {
  let lap = Date.now();
  return (what: string) => {
    const now = Date.now();
    log(`  ${what} (${((now - lap) / 1000).toFixed(1)} s)`);
    lap = now;
  };
}

/** A migrated database with the seeded people and their follows, cached: every plan starts from a copy. */
async function peopleDatabase(plan: SeedPlan, log: (line: string) => void): Promise<string> {
  const dir = path.join(
    cacheRoot,
    await cacheKey('people', { users: plan.users, followsPerUser: plan.followsPerUser }),
  );
  const file = path.join(dir, 'hearth.db');
  if (existsSync(file)) {
    retireStaleCaches(dir, log);
    return file;
  }

  log(`Seeding ${plan.users.toLocaleString('en')} people and their follows…`);
  const step = stepLogger(log);
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    const database = openDatabase({ dataDir: building, databaseUrl: undefined });
    await migrateToLatest(database.db);
    await database.close();
    step('schema migrated');

    const { userIds, usernames, followees, followerCount } = people(plan);
    const db = openForBulk(path.join(building, 'hearth.db'));
    const insertUser = db.prepare(
      `INSERT INTO users (id, name, email, emailVerified, createdAt, updatedAt, username, displayUsername,
         role, firstName, lastName, active, followerCount, followingCount)
       VALUES (?, ?, ?, 0, ?, ?, ?, ?, 'user', ?, ?, 1, ?, ?)`,
    );
    const insertFollow = db.prepare(
      'INSERT INTO follows (id, followerId, followeeId, createdAt) VALUES (?, ?, ?, ?)',
    );
    const rebuilt = withoutIndexes(db, ['follows'], () => {
      bulk(db, range(plan.users), (u) => {
        const first = firstNames[u % firstNames.length] ?? 'Ada';
        const last = lastNames[Math.floor(u / firstNames.length) % lastNames.length] ?? 'Lovelace';
        const joined = iso(epoch - dayMs - (plan.users - u) * 60_000);
        insertUser.run(
          userIds[u],
          `${first} ${last}`,
          `${usernames[u] ?? ''}@bench.hearth.test`,
          joined,
          joined,
          usernames[u],
          usernames[u],
          first,
          last,
          followerCount[u],
          plan.followsPerUser,
        );
      });
      step(`users: ${plan.users.toLocaleString('en')}`);
      const joined = iso(epoch - dayMs);
      bulk(db, range(followees.length), (i) => {
        const follower = Math.floor(i / plan.followsPerUser);
        insertFollow.run(i + 1, userIds[follower], userIds[followees[i] ?? 0], joined);
      });
      step(`follows: ${followees.length.toLocaleString('en')}`);
    });
    step(`${rebuilt} follow indexes built`);
    db.close();
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
    retireStaleCaches(dir, log);
    return file;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}

/** Writes posts, their tags, comments and likes, and every counter they feed, into a copy of the people. */
function writeContent(file: string, plan: SeedPlan, crowd: People, log: (line: string) => void) {
  const step = stepLogger(log);
  const random = generator(0x5eed + plan.posts);
  const { userIds } = crowd;
  const postAuthors = new Int32Array(plan.posts);
  const postCount = new Int32Array(plan.users);
  for (let p = 0; p < plan.posts; p += 1) {
    const author = random.below(plan.users);
    postAuthors[p] = author;
    postCount[author] = (postCount[author] ?? 0) + 1;
  }
  const postTime = (postId: number) => epoch + Math.floor(((postId - 1) * postSpanMs) / plan.posts);

  // Comments and likes first in memory, so the posts carry their counts when written.
  const showcasePostId = plan.posts;
  const commentPosts = new Int32Array(plan.comments);
  for (let c = 0; c < plan.comments; c += 1) commentPosts[c] = 1 + random.below(plan.posts - 1);
  commentPosts.sort();
  const commentCount = new Int32Array(plan.posts + 1);
  for (const postId of commentPosts) commentCount[postId] = (commentCount[postId] ?? 0) + 1;
  commentCount[showcasePostId] = plan.showcaseComments;
  const allCommentPosts = [
    ...commentPosts,
    ...new Array<number>(plan.showcaseComments).fill(showcasePostId),
  ];

  const likeKeys = new Set<number>();
  while (likeKeys.size < plan.likes) {
    likeKeys.add((1 + random.below(plan.posts)) * plan.users + random.below(plan.users));
  }
  const likes = Float64Array.from(likeKeys).sort();
  likeKeys.clear();
  const likeCount = new Int32Array(plan.posts + 1);
  for (const key of likes) {
    const postId = Math.floor(key / plan.users);
    likeCount[postId] = (likeCount[postId] ?? 0) + 1;
  }

  const db = openForBulk(file);
  const insertPost = db.prepare(
    `INSERT INTO posts (id, authorId, body, createdAt, likeCount, commentCount, commentsRevision)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = db.prepare('INSERT INTO post_tags (tag, postId) VALUES (?, ?)');
  const insertComment = db.prepare(
    `INSERT INTO comments (id, postId, parentId, authorId, body, createdAt, likeCount, replyCount)
     VALUES (?, ?, NULL, ?, ?, ?, 0, 0)`,
  );
  const insertLike = db.prepare(
    'INSERT INTO post_likes (id, postId, userId, createdAt) VALUES (?, ?, ?, ?)',
  );
  const countPosts = db.prepare('UPDATE users SET postCount = ? WHERE id = ?');

  withoutSearchTriggers(db, () => {
    const rebuilt = withoutIndexes(db, ['posts', 'post_tags', 'comments', 'post_likes'], () => {
      bulk(db, range(plan.posts), (p) => {
        const postId = p + 1;
        let body = text(random, 8, 40);
        // Appended without drawing from the generator, so every other row stays as earlier seeds wrote it.
        if (postId % rareEvery === 0) body = `${body} An ${rareWord} tonight.`;
        const comments = commentCount[postId] ?? 0;
        insertPost.run(
          postId,
          userIds[postAuthors[p] ?? 0],
          body,
          iso(postTime(postId)),
          likeCount[postId],
          comments,
          comments,
        );
        if (body.includes('#')) for (const tag of extractHashtags(body)) insertTag.run(tag, postId);
      });
      step(`posts: ${plan.posts.toLocaleString('en')}`);

      let previousPost = 0;
      let nth = 0;
      bulk(db, range(allCommentPosts.length), (c) => {
        const postId = allCommentPosts[c] ?? 1;
        nth = postId === previousPost ? nth + 1 : 0;
        previousPost = postId;
        insertComment.run(
          c + 1,
          postId,
          userIds[random.below(plan.users)],
          text(random, 3, 20),
          iso(postTime(postId) + (nth + 1) * 60_000),
        );
      });
      step(`comments: ${allCommentPosts.length.toLocaleString('en')}`);

      bulk(db, range(likes.length), (i) => {
        const key = likes[i] ?? 0;
        const postId = Math.floor(key / plan.users);
        insertLike.run(
          i + 1,
          postId,
          userIds[key % plan.users],
          iso(postTime(postId) + 1_000 + (i % 1_000)),
        );
      });
      step(`likes: ${likes.length.toLocaleString('en')}`);

      bulk(db, range(plan.users), (u) => countPosts.run(postCount[u], userIds[u]));
    });
    step(`${rebuilt} indexes built`);
  });
  step(`search index built over ${plan.posts.toLocaleString('en')} posts`);
  db.pragma('journal_mode = WAL');
  db.close();
  return { showcasePostId };
}

/** Creates real accounts through the sign-up API of the built server, then has each follow seeded people. */
async function createAccounts(
  dataDir: string,
  plan: SeedPlan,
  crowd: People,
): Promise<BenchAccount[]> {
  const server = await startServer({ dataDir });
  const accounts: BenchAccount[] = [];
  try {
    for (let i = 0; i < plan.accounts; i += 1) {
      const username = `bench_reader_${i}`;
      const email = `${username}@bench.hearth.test`;
      const response = await request(server, 'POST', '/api/auth/sign-up', {
        email,
        username,
        password: accountPassword,
        firstName: 'Bench',
        lastName: `Reader ${i}`,
      });
      if (response.status !== 201) {
        throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
      }
      const { user } = (await response.json()) as { user: { uid: string } };
      accounts.push({ uid: user.uid, username, email, password: accountPassword });
    }
  } finally {
    await server.stop();
  }

  // Each account follows the same people as one seeded user: a typical Following feed.
  const db = new SQLite(path.join(dataDir, 'hearth.db'));
  const follow = db.prepare(
    'INSERT INTO follows (followerId, followeeId, createdAt) VALUES (?, ?, ?)',
  );
  const countFollower = db.prepare(
    'UPDATE users SET followerCount = followerCount + 1 WHERE id = ?',
  );
  const countFollowing = db.prepare('UPDATE users SET followingCount = ? WHERE id = ?');
  db.transaction(() => {
    for (const [i, account] of accounts.entries()) {
      const model = (i * 7919) % plan.users;
      for (let k = 0; k < plan.followsPerUser; k += 1) {
        const followee = crowd.userIds[crowd.followees[model * plan.followsPerUser + k] ?? 0];
        follow.run(account.uid, followee, iso(epoch));
        countFollower.run(followee);
      }
      countFollowing.run(plan.followsPerUser, account.uid);
    }
  })();
  db.close();
  return accounts;
}

/** The seeded database for `plan`, from the cache or seeded now (a couple of minutes for the full plan). */
export async function seededDatabase(
  plan: SeedPlan,
  log: (line: string) => void = console.log,
): Promise<SeededDatabase> {
  const dir = path.join(cacheRoot, await cacheKey(plan.name, plan));
  const manifestFile = path.join(dir, 'manifest.json');
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as SeededDatabase;
    retireStaleCaches(dir, log);
    // Where the cache is now, wherever it was seeded (a checkout moved or copied with its cache).
    return { ...manifest, dataDir: path.join(dir, 'data') };
  }

  const started = Date.now();
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const dataDir = path.join(building, 'data');
  mkdirSync(dataDir, { recursive: true });
  try {
    const file = path.join(dataDir, 'hearth.db');
    copyFileSync(await peopleDatabase(plan, log), file);
    log(
      `Seeding the ${plan.name} database (${plan.posts.toLocaleString('en')} posts) into ${dir}…`,
    );
    const crowd = people(plan);
    const { showcasePostId } = writeContent(file, plan, crowd, log);
    const accounts = await createAccounts(dataDir, plan, crowd);
    log(`  accounts: ${accounts.length} signed up through the API`);

    const seededInSeconds = Math.round((Date.now() - started) / 100) / 10;
    const manifest: SeededDatabase = {
      plan,
      dataDir: path.join(dir, 'data'),
      accounts,
      showcasePostId,
      postCount: plan.posts,
      usernames: crowd.usernames.filter((_, i) => i % 97 === 0),
      seededInSeconds,
    };
    writeFileSync(path.join(building, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
    retireStaleCaches(dir, log);
    log(`  seeded in ${seededInSeconds} s`);
    return manifest;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const plan of [fullPlan, smallPlan]) {
    const seeded = await seededDatabase(plan);
    console.log(`${plan.name}: ${seeded.dataDir} (seeded in ${seeded.seededInSeconds} s)`);
  }
}
