import { parseTopic } from '../../shared/realtime.js';
import type { FeedSignal, Page, Post, PostView, Thread } from '../../shared/schemas/post.js';
import type { UserDocument } from '../../shared/schemas/user.js';
import type { DocumentEvent, EventBus } from '../events/bus.js';
import { TaggedLru } from './tagged-lru.js';

/** How many documents the read cache keeps at most (configuration: READ_CACHE_POSTS, READ_CACHE_PROFILES). */
export interface ReadCacheSizes {
  posts: number;
  profiles: number;
}

/** Anonymous first pages kept: one per page size asked for, and one comments page per post. */
const everyonePages = 8;
const threadPagesPerPost = 2;

/**
 * Readers whose Following first page is kept, per post document kept: each carries its followees as tags,
 * about 200 set entries, so they are bounded more tightly than documents.
 */
const followingReadersPerPost = 1 / 20;
/** A reader who follows more people than this has their Following page walked each time. */
export const followingMaxFollowees = 5_000;
/** A Following page is read afresh at least this often, so a mute that ran out is not felt for long. */
const followingMaxAgeMs = 60_000;

/** How often the bus's connection is looked at when no read does. */
const outageCheckMs = 250;

/** Every user event drops the profiles whose bio mentions someone: a mention links only to a current name. */
const bioMentionsTag = 'bio-mentions';

const postTag = (id: string) => `post:${id}`;
const userTag = (uid: string) => `user:${uid}`;
/** On a Following page: a post it lists (`member`), an author it follows (`follows`). */
const memberTag = (id: string) => `member:${id}`;
const followsTag = (uid: string) => `follows:${uid}`;

/** Compares two numeric ids (ADR 0007: ids are decimal strings without leading zeros). */
function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The Everyone first page and the oldest id it shows when full: a change below that cannot reach it. */
interface EveryonePage {
  page: Page<PostView>;
  floor: string;
}

/** The ids of a reader's Following first page (one more than `limit`, for the cursor), as their walk found them. */
interface FollowingIds {
  limit: number;
  ids: readonly string[];
  floor: string;
}

/**
 * The public documents every viewer sees alike — posts, profiles — the anonymous first pages of the
 * Everyone feed and of a post's comments, and the ids of each reader's Following first page (ADR 0028).
 * No document in it depends on who reads: whether a viewer likes a post is read per request, and whose
 * content a viewer hides is filtered when ids are walked.
 *
 * Entries are dropped by the document events every write already publishes (ADR 0013): a post's topic
 * drops that post, a user's topic drops that user's profile and every post or page showing them, and the
 * feed topic drops the Everyone page when a post appears, or changes at or above its oldest entry. The
 * events come through the bus, so a write on any instance reaches every instance's cache; this instance's
 * own writes drop their entries before they are published (`InvalidatingBus`).
 *
 * A read that started before an event must not store what it read after that event: each store carries
 * the generation taken before its read, and is refused when an event came in between. While the bus may
 * miss events (Redis unreachable) the cache is bypassed and emptied; it is used again once the bus
 * confirms it is back (`resumed`).
 */
export class ReadCache {
  #generation = 0;
  #suspect = false;
  readonly #posts: TaggedLru<Post>;
  readonly #profiles: TaggedLru<UserDocument>;
  readonly #everyone = new TaggedLru<EveryonePage>(everyonePages);
  readonly #threads: TaggedLru<Page<Thread>>;
  readonly #following: TaggedLru<FollowingIds>;
  /** The feed's head, once read: the newest post's id, or null when there are none. */
  #head: { id: string | null } | undefined;
  readonly #unsubscribe: () => void;
  readonly #watch: NodeJS.Timeout;

  constructor(
    private readonly bus: Pick<EventBus, 'connected' | 'subscribe'>,
    sizes: ReadCacheSizes,
  ) {
    this.#posts = new TaggedLru(sizes.posts);
    this.#profiles = new TaggedLru(sizes.profiles);
    // Comments pages are bounded by the posts setting: one post's page costs about what its comments do.
    this.#threads = new TaggedLru(Math.ceil(sizes.posts / 100) * threadPagesPerPost);
    this.#following = new TaggedLru(Math.ceil(sizes.posts * followingReadersPerPost));
    this.#unsubscribe = bus.subscribe({
      document: (event) => this.invalidate(event),
      resumed: () => {
        this.clear();
        this.#suspect = false;
      },
    });
    // An outage that begins and ends between two reads must still mark the cache until `resumed`.
    this.#watch = setInterval(() => this.#usable(), outageCheckMs);
    this.#watch.unref();
  }

  /** Stops listening to the bus and forgets everything. */
  close(): void {
    clearInterval(this.#watch);
    this.#unsubscribe();
    this.clear();
  }

  /** Taken before a read whose result may be stored: a store with an older generation is refused. */
  generation(): number {
    return this.#generation;
  }

  post(id: string): Post | undefined {
    return this.#usable() ? this.#posts.get(id) : undefined;
  }

  keepPost(post: Post, generation: number): void {
    if (!this.#fresh(generation)) return;
    this.#posts.set(post.id, post, [postTag(post.id), userTag(post.author.uid)]);
  }

  /** A profile by its lowercase username. */
  profile(username: string): UserDocument | undefined {
    return this.#usable() ? this.#profiles.get(username) : undefined;
  }

  /**
   * Keeps a profile under its current lowercase username. `expiresAt` is when a suspension it shows runs
   * out; `mentions` says whether its bio mentions anyone.
   */
  keepProfile(
    document: UserDocument,
    generation: number,
    { mentions, expiresAt }: { mentions: boolean; expiresAt: number },
  ): void {
    if (!this.#fresh(generation) || document.username === null) return;
    const tags = [userTag(document.uid), ...(mentions ? [bioMentionsTag] : [])];
    this.#profiles.set(document.username.toLowerCase(), document, tags, expiresAt);
  }

  /**
   * The feed's head (the newest post's id, null when there are none), or undefined when it is not known.
   * Every change to a post but a new one or a deletion carries it, so a like does not read it again.
   */
  head(): { id: string | null } | undefined {
    return this.#usable() ? this.#head : undefined;
  }

  /** Kept until a post is created or deleted, here or on another instance. */
  keepHead(id: string | null, generation: number): void {
    if (this.#fresh(generation)) this.#head = { id };
  }

  /** The anonymous Everyone feed's first page of `limit` posts. */
  everyone(limit: number): Page<PostView> | undefined {
    return this.#usable() ? this.#everyone.get(String(limit))?.page : undefined;
  }

  keepEveryone(limit: number, page: Page<PostView>, generation: number): void {
    if (!this.#fresh(generation)) return;
    const oldest = page.items.at(-1);
    const floor = page.items.length >= limit && oldest ? oldest.id : '0';
    const tags = page.items.flatMap((post) => [postTag(post.id), userTag(post.author.uid)]);
    this.#everyone.set(String(limit), { page, floor }, tags);
  }

  /** The anonymous first page of a post's comments. */
  thread(postId: string, limit: number): Page<Thread> | undefined {
    return this.#usable() ? this.#threads.get(`${postId}:${limit}`) : undefined;
  }

  /** Kept until the post's document changes (every comment write republishes it) or an author's does. */
  keepThread(postId: string, limit: number, page: Page<Thread>, generation: number): void {
    if (!this.#fresh(generation)) return;
    const authors = new Set<string>();
    for (const comment of page.items) {
      authors.add(comment.author.uid);
      for (const reply of comment.replies) authors.add(reply.author.uid);
    }
    const tags = [postTag(postId), ...[...authors].map(userTag)];
    this.#threads.set(`${postId}:${limit}`, page, tags);
  }

  /**
   * The ids of `reader`'s Following first page of `limit` posts. Only ids: their documents come from the
   * post cache, and whether the reader likes them is read per request.
   */
  following(reader: string, limit: number): readonly string[] | undefined {
    if (!this.#usable()) return undefined;
    const entry = this.#following.get(reader);
    return entry?.limit === limit ? entry.ids : undefined;
  }

  /**
   * Keeps a Following first page until one of `followees` (or the reader) posts, a post on it is deleted
   * or removed, one of theirs is restored above its oldest, or the reader follows, unfollows, blocks or
   * mutes (their user and relationships topics).
   */
  keepFollowing(
    reader: string,
    limit: number,
    ids: readonly string[],
    followees: readonly string[],
    generation: number,
  ): void {
    if (!this.#fresh(generation) || followees.length > followingMaxFollowees) return;
    const shown = ids.slice(0, limit);
    const oldest = shown.at(-1);
    const floor = ids.length > limit && oldest ? oldest : '0';
    const tags = [
      userTag(reader),
      followsTag(reader),
      ...followees.map(followsTag),
      ...ids.map(memberTag),
    ];
    this.#following.set(reader, { limit, ids, floor }, tags, Date.now() + followingMaxAgeMs);
  }

  /** Drops what a document event says changed. Called for every event, local or from other instances. */
  invalidate(event: DocumentEvent): void {
    const topic = parseTopic(event.topic);
    if (!topic) return;
    switch (topic.kind) {
      case 'post':
        this.#generation += 1;
        this.#dropTag(postTag(topic.key));
        // Null: deleted, or removed by moderators. A change of its text or counts leaves the ids as they are.
        if (event.data === null) {
          this.#following.dropTag(memberTag(topic.key));
          this.#head = undefined;
        }
        return;
      case 'user':
        this.#generation += 1;
        this.#dropTag(userTag(topic.key));
        this.#following.dropTag(followsTag(topic.key));
        this.#profiles.dropTag(bioMentionsTag);
        return;
      case 'relationships':
        // The reader blocked, unblocked, muted or unmuted someone, or was blocked.
        this.#generation += 1;
        this.#following.delete(topic.key);
        return;
      case 'feed': {
        this.#generation += 1;
        // The topic's kind fixes its document's type; TypeScript cannot follow it through parseTopic.
        const { change } = event.data as FeedSignal;
        if (!change) {
          this.#everyone.clear();
          this.#following.clear();
          this.#head = undefined;
          return;
        }
        // A like, an edit or a restoration leaves the newest post where it was.
        if (change.kind !== 'updated') this.#head = undefined;
        if (change.kind === 'created') {
          this.#everyone.clear();
          this.#following.dropTag(followsTag(change.post.author.uid));
          return;
        }
        const postId = change.kind === 'deleted' ? change.postId : change.post.id;
        this.#dropTag(postTag(postId));
        if (change.kind === 'deleted') {
          this.#following.dropTag(memberTag(postId));
        } else {
          // A restored post above a page's oldest joins it; a liked or edited one it lists changes nothing.
          for (const reader of this.#following.keysOf(followsTag(change.post.author.uid))) {
            const entry = this.#following.peek(reader);
            if (entry && !entry.ids.includes(postId) && compareIds(postId, entry.floor) >= 0) {
              this.#following.delete(reader);
            }
          }
        }
        for (const limit of [...this.#everyone.keys()]) {
          const entry = this.#everyone.peek(limit);
          if (entry && compareIds(postId, entry.floor) >= 0) this.#everyone.delete(limit);
        }
        return;
      }
      default:
        // Notifications and moderation counts are never cached here.
        return;
    }
  }

  /** Forgets everything; reads in flight store nothing. */
  clear(): void {
    this.#generation += 1;
    this.#head = undefined;
    this.#posts.clear();
    this.#profiles.clear();
    this.#everyone.clear();
    this.#threads.clear();
    this.#following.clear();
  }

  #dropTag(tag: string): void {
    this.#posts.dropTag(tag);
    this.#profiles.dropTag(tag);
    this.#everyone.dropTag(tag);
    this.#threads.dropTag(tag);
    this.#following.dropTag(tag);
  }

  /** Whether entries may be served: the bus is up and has not missed events since they were stored. */
  #usable(): boolean {
    if (this.bus.connected()) return !this.#suspect;
    if (!this.#suspect) {
      this.#suspect = true;
      this.clear();
    }
    return false;
  }

  #fresh(generation: number): boolean {
    return this.#usable() && generation === this.#generation;
  }
}

/**
 * The bus with this instance's read cache in front: a write's own events drop its cache entries before
 * they are published, so the instance that wrote never serves what it just changed, even before Redis
 * echoes the event back.
 */
export class InvalidatingBus implements EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly cache: ReadCache,
  ) {}

  publish(event: DocumentEvent): Promise<void> {
    this.cache.invalidate(event);
    return this.inner.publish(event);
  }

  /** No cache holds a document that is published this way. */
  publishChanged(...args: Parameters<EventBus['publishChanged']>): Promise<void> {
    return this.inner.publishChanged(...args);
  }

  publishSessionsEnded(...args: Parameters<EventBus['publishSessionsEnded']>): Promise<void> {
    return this.inner.publishSessionsEnded(...args);
  }

  subscribe(...args: Parameters<EventBus['subscribe']>): () => void {
    return this.inner.subscribe(...args);
  }

  connected(): boolean {
    return this.inner.connected();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
