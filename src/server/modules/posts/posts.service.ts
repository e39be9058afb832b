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
} from '../../../shared/schemas/post.js';
import { postError } from '../../../shared/text-rules.js';
import { DomainError, Forbidden, Invalid, NotFound, Unauthenticated } from '../../errors.js';
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
import { toPage } from '../pagination.js';
import { newlyMentioned } from '../notifications/mentioned.js';
import type { NotificationSink } from '../notifications/notifications.service.js';
import type { RelationshipGuard } from '../relationships/relationships.service.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { UsersService } from '../users/users.service.js';
import type { PostPresenter } from './posts.presenter.js';
import type { Bounds, PostRecord, PostsRepository, PostState } from './posts.repository.js';

const postNotFound = () => new NotFound('This post does not exist or was deleted.');

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
        tags: extractHashtags(post.body),
        media,
        mentions: mentionedUsernames(post.body),
      });
      await this.uploads.committed(batch);
      const created = this.documentOf(state);
      await this.announce('a new post', async () => {
        await this.bus.publish({
          topic: feedTopic,
          data: { head: created.id, change: { kind: 'created', post: created } },
        });
        // The author's post count changed; their document is not at hand, so it is read once.
        await this.users.publish(viewer.uid);
      });
      await this.notifications.notified(state.notified);
      return { ...created, liked: false };
    } finally {
      // Anything stored for a post that was not created is deleted (a sweep does it if this process dies).
      await this.uploads.discard(batch);
    }
  }

  async get(viewer: Viewer | null, postId: string): Promise<PostView> {
    const record = await this.posts.findById(postId);
    if (!record) throw postNotFound();
    // Removed by moderators: only its author still sees it (ADR 0021).
    if (record.removedAt !== null && record.authorId !== viewer?.uid) throw postNotFound();
    // Between people who block each other, each one's posts are not there for the other (ADR 0022).
    if (viewer && (await this.relationships.isBlockedEitherWay(viewer.uid, record.authorId))) {
      throw postNotFound();
    }
    const [view] = await this.views([record], viewer);
    if (!view) throw postNotFound();
    return view;
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
    const rows =
      query.tab === 'following' && viewer
        ? await this.posts.listFollowing(viewer.uid, bounds)
        : await this.posts.listEveryone(bounds, query.tag);
    return this.page(rows, limit, viewer);
  }

  /** Posts in the order of `postIds` (a search's ranking), as lists show them; gone ones are left out. */
  async viewsInOrder(viewer: Viewer | null, postIds: readonly string[]): Promise<PostView[]> {
    const records = new Map((await this.posts.findByIds(postIds)).map((row) => [row.id, row]));
    const ordered = postIds.flatMap((id) => {
      const record = records.get(id);
      // Removed by moderators: left out for all but its author (ADR 0021).
      if (record?.removedAt && record.authorId !== viewer?.uid) return [];
      return record ? [record] : [];
    });
    return this.views(ordered, viewer);
  }

  /** A profile's posts, newest first. */
  async byAuthor(viewer: Viewer | null, uid: string, query: PageQuery): Promise<Page<PostView>> {
    await this.users.getById(uid);
    if (viewer && (await this.relationships.isBlockedEitherWay(viewer.uid, uid))) {
      throw new NotFound('This person’s posts are not available to you.');
    }
    const rows = await this.posts.listByAuthor(uid, {
      before: query.cursor,
      limit: query.limit + 1,
      ...(viewer ? { reader: viewer.uid } : {}),
    });
    return this.page(rows, query.limit, viewer);
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
    if (liked) {
      const standing = await this.posts.findStanding(postId);
      if (!standing || (standing.removed && standing.authorId !== viewer.uid)) {
        throw postNotFound();
      }
      await this.relationships.assertNotBlocked(
        viewer.uid,
        standing.authorId,
        "You can't like this post: one of you has blocked the other.",
      );
    }
    const state = await this.posts.setLike(postId, viewer.uid, liked);
    if (!state) throw postNotFound();
    await this.publishState(state);
    await this.notifications.notified(state.notified);
    return { liked, likeCount: state.record.likeCount };
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
        data: { head: await this.posts.head(), change: { kind: 'updated', post } },
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
    const record = await this.posts.findById(postId);
    // A removed post is gone for the topic's public audience (ADR 0021).
    if (!record || record.removedAt !== null) return null;
    const images = this.presenter.imagesByPost(await this.posts.mediaFor([record.id]));
    return this.presenter.post(record, images.get(record.id) ?? []);
  }

  /** What a new subscriber of the `feed` topic receives. */
  async feedSnapshot(): Promise<FeedSignal> {
    return { head: await this.posts.head(), change: null };
  }

  private async page(
    rows: PostRecord[],
    limit: number,
    viewer: Viewer | null,
  ): Promise<Page<PostView>> {
    const page = toPage(rows, limit, (row) => row.id);
    return { items: await this.views(page.items, viewer), nextCursor: page.nextCursor };
  }

  /** Documents for a list of posts, with images and the viewer's likes: two queries, whatever the size. */
  private async views(records: PostRecord[], viewer: Viewer | null): Promise<PostView[]> {
    const ids = records.map((record) => record.id);
    const [media, liked] = await Promise.all([
      this.posts.mediaFor(ids),
      viewer ? this.posts.likedAmong(viewer.uid, ids) : Promise.resolve(new Set<string>()),
    ]);
    const images = this.presenter.imagesByPost(media);
    return records.map((record) => ({
      ...this.presenter.post(record, images.get(record.id) ?? []),
      liked: liked.has(record.id),
    }));
  }
}

/** The shared rule of a post's text and images (text-rules.ts), the one the web app's forms check too. */
function checkPost(body: string, imageCount: number): void {
  const problem = postError(body, imageCount);
  if (problem !== null) throw new Invalid(problem, { body: problem });
}

export function tooManyImages(): DomainError {
  const message = `A post can have at most ${limits.post.maxImages} images.`;
  return new Invalid(message, { images: message });
}
