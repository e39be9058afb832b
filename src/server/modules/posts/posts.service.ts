import type { Logger } from 'pino';
import { extractHashtags } from '../../../shared/hashtags.js';
import { limits } from '../../../shared/limits.js';
import { mentionedUsernames } from '../../../shared/mentions.js';
import { feedTopic, postTopic } from '../../../shared/realtime.js';
import {
  type Author,
  type CreatePost,
  type FeedQuery,
  type FeedSignal,
  type LikeState,
  type Page,
  type PageQuery,
  type Post,
  type PostView,
  type PostVersion,
  type UpdatePost,
  postViewSchema,
} from '../../../shared/schemas/post.js';
import { postError } from '../../../shared/text-rules.js';
import {
  AccountDeleted,
  DomainError,
  Forbidden,
  Invalid,
  NotFound,
  Unauthenticated,
} from '../../errors.js';
import { followingMaxFollowees, type ReadCache } from '../../cache/read-cache.js';
import type { EventBus } from '../../events/bus.js';
import { parseRenditions, postRenditions } from '../../media/renditions.js';
import {
  renditionKeys,
  imageFieldError,
  ImageRejected,
  UploadBatch,
  type MediaUploads,
  type NewMedia,
} from '../../media/stored-image.js';
import type { FormFile } from '../../media/multipart.js';
import type { Viewer } from '../../plugins/viewer.js';
import { memoisedJson } from '../../http/json-text.js';
import { toPage } from '../pagination.js';
import { newlyMentioned } from '../notifications/mentioned.js';
import type { NotificationSink } from '../notifications/notifications.service.js';
import type { RelationshipGuard } from '../relationships/relationships.service.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { UsersService } from '../users/users.service.js';
import type { PostPresenter } from './posts.presenter.js';
import type { Bounds, PostsRepository, PostState } from './posts.repository.js';

const postNotFound = () => new NotFound('This post does not exist or was deleted.');

/** Each document's two views (not liked, liked), for as long as the document lives (the read cache's). */
const viewsOfDocument = new WeakMap<Post, [PostView | undefined, PostView | undefined]>();

/**
 * A post as a reader sees it: the same object for the same document and like, so its text is written
 * once however many pages list it (`postViewJson`, ADR 0040).
 */
function viewOf(post: Post, liked: boolean): PostView {
  let views = viewsOfDocument.get(post);
  if (!views) {
    views = [undefined, undefined];
    viewsOfDocument.set(post, views);
  }
  const slot = liked ? 1 : 0;
  let view = views[slot];
  if (!view) {
    view = { ...post, liked };
    views[slot] = view;
  }
  return view;
}

/** A post as the contract writes it, kept for as long as the view lives. */
export const postViewJson = memoisedJson(postViewSchema);

/** Posts, the feed and likes (issue: posts). Authorisation is decided here, once. */
export class PostsService {
  constructor(
    private readonly posts: PostsRepository,
    private readonly presenter: PostPresenter,
    private readonly users: UsersService,
    private readonly bus: EventBus,
    private readonly uploads: MediaUploads,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly notifications: NotificationSink,
    private readonly relationships: RelationshipGuard,
    /** Public post documents and the anonymous first page (ADR 0028); none in one-off processes. */
    private readonly cache: ReadCache | null = null,
  ) {}

  /**
   * Tells open pages about a write that is committed. Publishing never fails (ADR 0011), but what is read
   * to announce it can (the feed's head, the author's counts): the write is saved, so such a failure is
   * logged and the write still answers success; pages catch up at their next read or resubscription.
   */
  private async announce(what: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      this.log.warn({ err: error }, `could not announce ${what}`);
    }
  }

  /** Creates a post. Images go through the pipeline first; if any is refused, nothing is created or kept. */
  async create(viewer: Viewer, post: CreatePost, files: FormFile[]): Promise<PostView> {
    if (files.length > limits.post.maxImages) throw tooManyImages();
    checkPost(post.body, files.length);
    const alts = [post.alt0, post.alt1, post.alt2, post.alt3];
    const batch = new UploadBatch();
    try {
      const media: NewMedia[] = [];
      for (const file of files) {
        const position = Number(file.field.slice('image'.length));
        try {
          media.push(
            await this.uploads.store(
              {
                purpose: 'post',
                body: file.body,
                alt: alts[position] ?? null,
                specs: postRenditions,
              },
              batch,
            ),
          );
        } catch (error) {
          if (error instanceof ImageRejected) throw imageFieldError(file.field, error);
          throw error;
        }
      }
      const state = await this.posts.create({
        authorId: viewer.uid,
        body: post.body,
        tags: hashtagsOf(post.body),
        media,
        mentions: mentionsOf(post.body),
      });
      // The account was deleted as the post was written, and the post went with it.
      if (!state) throw new AccountDeleted();
      await this.uploads.committed(batch);
      const created = this.documentOf(state);
      await this.announce('a new post', async () => {
        await this.bus.publish({
          topic: feedTopic,
          data: { head: created.id, change: { kind: 'created', post: created } },
        });
        // The author's post count changed: their record as the write left it is at hand (ADR 0029).
        await this.users.publishRecords([state.author]);
      });
      await this.notifications.notified(state.notified);
      return { ...created, liked: false };
    } finally {
      // Anything stored for a post that was not created is deleted (a sweep does it if this process dies).
      await this.uploads.discard(batch);
    }
  }

  async get(viewer: Viewer | null, postId: string): Promise<PostView> {
    const post = (await this.documents([postId])).get(postId);
    if (!post) throw postNotFound();
    // Removed by moderators: only its author still sees it (ADR 0021).
    if (post.removal !== null && post.author.uid !== viewer?.uid) throw postNotFound();
    if (!viewer) return { ...post, liked: false };
    // Between people who block each other, each one's posts are not there for the other (ADR 0022).
    const [blocked, liked] = await Promise.all([
      this.relationships.isBlockedEitherWay(viewer.uid, post.author.uid),
      this.posts.likedAmong(viewer.uid, [postId]),
    ]);
    if (blocked) throw postNotFound();
    return { ...post, liked: liked.has(postId) };
  }

  /** The Following or Everyone feed, newest first (issue: posts, feed). */
  async feed(viewer: Viewer | null, query: FeedQuery): Promise<Page<PostView>> {
    if (query.tab === 'following' && !viewer) {
      throw new Unauthenticated('Sign in to see posts from the people you follow.');
    }
    if (query.tab === 'following' && query.tag) {
      throw new Invalid('Hashtag feeds show everyone’s posts: use the everyone tab.', {
        tag: 'Hashtags filter the everyone feed only.',
      });
    }
    const newer = query.after !== undefined;
    const limit = newer ? Math.min(query.limit, limits.newPostsMax) : query.limit;
    const bounds: Bounds = {
      ...(newer ? { after: query.after, limit } : { before: query.cursor, limit: limit + 1 }),
      ...(viewer ? { viewerId: viewer.uid } : {}),
    };
    // The anonymous Everyone first page is the same for every visitor: kept whole until it changes.
    const shared =
      !viewer && query.tab !== 'following' && !query.tag && !newer && query.cursor === undefined;
    const cached = shared ? this.cache?.everyone(limit) : undefined;
    if (cached) return cached;
    const generation = this.cache?.generation() ?? 0;
    if (query.tab === 'following' && viewer) {
      return this.page(await this.followingIds(viewer.uid, bounds), limit, viewer);
    }
    const page = await this.page(await this.posts.listEveryone(bounds, query.tag), limit, viewer);
    if (shared) this.cache?.keepEveryone(limit, page, generation);
    return page;
  }

  /**
   * The ids of a Following page. The first page's are kept per reader until someone they follow posts or
   * their follows, blocks or mutes change (ADR 0028); other pages walk each time.
   */
  private async followingIds(reader: string, bounds: Bounds): Promise<string[]> {
    const first = bounds.before === undefined && bounds.after === undefined;
    const cached = first ? this.cache?.following(reader, bounds.limit) : undefined;
    if (cached) return [...cached];
    const generation = this.cache?.generation() ?? 0;
    const ids = await this.posts.listFollowing(reader, bounds);
    if (first && this.cache) {
      const followees = await this.posts.followeesOf(reader, followingMaxFollowees);
      this.cache.keepFollowing(reader, bounds.limit, ids, followees, generation);
    }
    return ids;
  }

  /** Posts in the order of `postIds` (a search's ranking), as lists show them; gone ones are left out. */
  viewsInOrder(viewer: Viewer | null, postIds: readonly string[]): Promise<PostView[]> {
    return this.views(postIds, viewer);
  }

  /** A profile's posts, newest first. */
  async byAuthor(viewer: Viewer | null, uid: string, query: PageQuery): Promise<Page<PostView>> {
    await this.users.getById(uid);
    if (viewer && (await this.relationships.isBlockedEitherWay(viewer.uid, uid))) {
      throw new NotFound('This person’s posts are not available to you.');
    }
    const ids = await this.posts.listByAuthor(uid, {
      before: query.cursor,
      limit: query.limit + 1,
      ...(viewer ? { reader: viewer.uid } : {}),
    });
    return this.page(ids, query.limit, viewer);
  }

  /** The author changes the text (the old one is kept as a version) or the images' alt texts. */
  async update(viewer: Viewer, postId: string, edit: UpdatePost): Promise<PostView> {
    const record = await this.posts.findById(postId);
    if (!record || (record.removedAt !== null && record.authorId !== viewer.uid)) {
      throw postNotFound();
    }
    if (record.authorId !== viewer.uid) throw new Forbidden('You can only edit your own posts.');
    if (record.removedAt !== null) {
      throw new Forbidden('The moderators removed this post, so it can no longer be edited.');
    }
    const media = await this.posts.mediaFor([record.id]);
    const imageCount = media.length;
    checkPost(edit.body, imageCount);
    const alts = new Map<number, string | null>();
    for (const [position, alt] of (edit.alts ?? []).entries()) {
      if (position >= imageCount) {
        throw new Invalid('That image is not part of this post.', {
          alts: 'There is no image at that position.',
        });
      }
      alts.set(position, alt === '' ? null : alt);
    }
    let state: PostState = { record, media };
    if (edit.body !== record.body || alts.size > 0) {
      const updated = await this.posts.update(postId, {
        body: edit.body,
        tags: extractHashtags(edit.body),
        alts,
        previous: {
          body: record.body,
          writtenAt: record.editedAt ?? record.createdAt,
        },
        mentions: newlyMentioned(record.body, edit.body),
      });
      if (!updated) throw postNotFound();
      await this.publishState(updated);
      await this.notifications.notified(updated.notified);
      state = updated;
    }
    const liked = await this.posts.likedAmong(viewer.uid, [postId]);
    return { ...this.documentOf(state), liked: liked.has(postId) };
  }

  /** The author, or an administrator moderating, deletes a post and everything under it. */
  async delete(viewer: Viewer, postId: string): Promise<void> {
    const record = await this.posts.findById(postId);
    if (!record) throw postNotFound();
    if (record.authorId !== viewer.uid && viewer.role !== 'admin') {
      throw new Forbidden('You can only delete your own posts.');
    }
    const deleted = await this.posts.delete(postId);
    if (!deleted) throw postNotFound();
    await this.uploads.remove(
      deleted.renditions.flatMap((json) => renditionKeys(parseRenditions(json))),
    );
    await this.bus.publish({ topic: postTopic(postId), data: null });
    await this.announce('a deleted post', async () => {
      await this.bus.publish({
        topic: feedTopic,
        data: { head: await this.posts.head(), change: { kind: 'deleted', postId } },
      });
      // The author's post count changed; their document is not at hand, so it is read once.
      await this.users.publish(record.authorId);
    });
    await this.notifications.notified({ deliveries: [], withdrawn: deleted.withdrawn });
  }

  /** Likes are idempotent: liking twice leaves one like. */
  async setLike(viewer: Viewer, postId: string, liked: boolean): Promise<LikeState> {
    if (liked) return this.like(viewer, postId);
    const state = await this.posts.unlike(postId, viewer.uid);
    if (!state) throw postNotFound();
    // A repeat changed nothing: there is nothing to announce.
    if (state.changed) {
      await this.publishState(state);
      await this.notifications.notified(state.notified);
    }
    return { liked, likeCount: state.record.likeCount };
  }

  /**
   * A like reads the post with everything its checks and its notification need in one query, then writes
   * in one transaction; the document it publishes is the one in hand (ADR 0029). A repeat publishes nothing.
   */
  private async like(viewer: Viewer, postId: string): Promise<LikeState> {
    const target = await this.posts.likeTarget(postId, viewer.uid);
    // Removed by moderators: only its author still sees it (ADR 0021).
    if (!target || (target.record.removedAt !== null && target.record.authorId !== viewer.uid)) {
      throw postNotFound();
    }
    // Between people who block each other, neither likes the other's posts (ADR 0022).
    if (target.blocked && target.record.authorId !== viewer.uid) {
      throw new Forbidden("You can't like this post: one of you has blocked the other.");
    }
    const state = await this.posts.like(target, viewer.uid);
    if (!state) throw postNotFound();
    if (state.changed) {
      await this.publishState(state);
      await this.notifications.notified(state.notified);
    }
    return { liked: true, likeCount: state.record.likeCount };
  }

  async likers(
    postId: string,
    query: PageQuery,
    viewer: Viewer | null = null,
  ): Promise<Page<Author>> {
    if (!(await this.posts.exists(postId))) throw postNotFound();
    const rows = await this.posts.likers(postId, {
      before: query.cursor,
      limit: query.limit + 1,
      ...(viewer ? { viewerId: viewer.uid } : {}),
    });
    const page = toPage(rows, query.limit, (row) => row.cursor);
    return {
      items: page.items.map((row) => presentAuthor(row, (key) => this.uploads.storage.url(key))),
      nextCursor: page.nextCursor,
    };
  }

  async versions(postId: string): Promise<{ items: PostVersion[] }> {
    if (!(await this.posts.exists(postId))) throw postNotFound();
    const rows = await this.posts.versions(postId);
    return { items: rows.map((row) => this.presenter.version(row)) };
  }

  /**
   * Sends a post's document, as the write that changed it (or its comments) left it, to its watchers and
   * to the feed, and returns it. The write read it in its own transaction, so nothing is read again
   * (ADR 0013); only the feed's head is asked for.
   */
  async publishState(state: PostState): Promise<Post> {
    const post = this.documentOf(state);
    await this.bus.publish({ topic: postTopic(post.id), data: post });
    await this.announce('a changed post to the feed', async () => {
      await this.bus.publish({
        topic: feedTopic,
        data: { head: await this.head(), change: { kind: 'updated', post } },
      });
    });
    return post;
  }

  /** The public document of a post from its state. */
  private documentOf({ record, media }: PostState): Post {
    return this.presenter.post(record, this.presenter.imagesByPost(media).get(record.id) ?? []);
  }

  /**
   * Sends many posts' documents at once (null for one that is gone), read in two queries, for a change that
   * touches many posts (an account's deletion). With `feed`, the feed hears of each as an update or a
   * deletion too; without, only the sockets watching each post do.
   */
  async publishMany(postIds: readonly string[], { feed }: { feed: boolean }): Promise<void> {
    const records = await this.posts.findByIds(postIds);
    const images = this.presenter.imagesByPost(
      await this.posts.mediaFor(records.map((record) => record.id)),
    );
    const documents = new Map(
      records.map((record) => {
        return [record.id, this.presenter.post(record, images.get(record.id) ?? [])];
      }),
    );
    // Read afresh: the change may be the deletion of the newest posts, which no event has announced yet.
    const head = feed ? await this.posts.head() : null;
    await Promise.all(
      postIds.map(async (postId) => {
        const found = documents.get(postId) ?? null;
        // Removed by moderators: gone for the topic's public audience (ADR 0021).
        const post =
          found && records.find((record) => record.id === postId)?.removedAt ? null : found;
        await this.bus.publish({ topic: postTopic(postId), data: post });
        if (!feed) return;
        await this.bus.publish({
          topic: feedTopic,
          data: { head, change: post ? { kind: 'updated', post } : { kind: 'deleted', postId } },
        });
      }),
    );
  }

  /** The public post document, or null when it does not exist (the posts/{id} topic). */
  async findDocument(postId: string): Promise<Post | null> {
    const post = (await this.documents([postId])).get(postId);
    // A removed post is gone for the topic's public audience (ADR 0021).
    return post && post.removal === null ? post : null;
  }

  /**
   * The feed's head, from the read cache when it holds it: for a change that leaves it where it was. A
   * deletion reads it afresh, as the cache learns of the deletion only from the events it is part of.
   */
  private async head(): Promise<string | null> {
    const cached = this.cache?.head();
    if (cached) return cached.id;
    const generation = this.cache?.generation() ?? 0;
    const head = await this.posts.head();
    this.cache?.keepHead(head, generation);
    return head;
  }

  /** What a new subscriber of the `feed` topic receives. */
  async feedSnapshot(): Promise<FeedSignal> {
    return { head: await this.head(), change: null };
  }

  private async page(ids: string[], limit: number, viewer: Viewer | null): Promise<Page<PostView>> {
    const page = toPage(ids, limit, (id) => id);
    return { items: await this.views(page.items, viewer), nextCursor: page.nextCursor };
  }

  /**
   * Posts in the order of `ids` as `viewer` sees them: the public documents (cached, or read in one batch)
   * and the viewer's likes in one query. Posts gone since the ids were read are left out, and so are posts
   * removed by moderators, but for their author (ADR 0021).
   */
  private async views(ids: readonly string[], viewer: Viewer | null): Promise<PostView[]> {
    const [documents, liked] = await Promise.all([
      this.documents(ids),
      viewer ? this.posts.likedAmong(viewer.uid, [...ids]) : Promise.resolve(new Set<string>()),
    ]);
    return ids.flatMap((id) => {
      const post = documents.get(id);
      if (!post || (post.removal !== null && post.author.uid !== viewer?.uid)) return [];
      return [viewOf(post, liked.has(id))];
    });
  }

  /**
   * The public documents of posts by id, from the read cache; the ones it lacks are read together (posts
   * with their authors, then their images) and kept (ADR 0028). Posts that are gone are absent.
   */
  private async documents(ids: readonly string[]): Promise<Map<string, Post>> {
    const found = new Map<string, Post>();
    const missing: string[] = [];
    for (const id of ids) {
      const post = this.cache?.post(id);
      if (post) found.set(id, post);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const generation = this.cache?.generation() ?? 0;
    const records = await this.posts.findByIds(missing);
    const images = this.presenter.imagesByPost(
      await this.posts.mediaFor(records.map((record) => record.id)),
    );
    for (const record of records) {
      const post = this.presenter.post(record, images.get(record.id) ?? []);
      found.set(record.id, post);
      this.cache?.keepPost(post, generation);
    }
    return found;
  }
}

/**
 * The hashtags and mentions of a new post's text. Every hashtag token starts with '#' and every mention
 * with '@', so a text without the sign needs no pass of the tokenizer (most posts have neither).
 */
const hashtagsOf = (body: string): string[] => (body.includes('#') ? extractHashtags(body) : []);
const mentionsOf = (body: string): string[] => (body.includes('@') ? mentionedUsernames(body) : []);

/** The shared rule of a post's text and images (text-rules.ts), the one the web app's forms check too. */
function checkPost(body: string, imageCount: number): void {
  const problem = postError(body, imageCount);
  if (problem !== null) throw new Invalid(problem, { body: problem });
}

export function tooManyImages(): DomainError {
  const message = `A post can have at most ${limits.post.maxImages} images.`;
  return new Invalid(message, { images: message });
}
