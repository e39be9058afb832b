import type { z } from 'zod';
import { limits } from '../../../shared/limits.js';
import { mentionedUsernames } from '../../../shared/mentions.js';
import type {
  Comment,
  createCommentSchema,
  LikeState,
  Page,
  PageQuery,
  Thread,
  updateCommentSchema,
} from '../../../shared/schemas/post.js';
import type { ReadCache } from '../../cache/read-cache.js';
import { Forbidden, Invalid, NotFound } from '../../errors.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { CommentPresenter } from './comments.presenter.js';
import { toPage } from '../pagination.js';
import type { NotifyingPostState, PostState } from '../posts/posts.repository.js';
import { newlyMentioned } from '../notifications/mentioned.js';
import type { NotificationTarget } from '../notifications/notifications.repository.js';
import type { NotificationSink } from '../notifications/notifications.service.js';
import type { RelationshipGuard } from '../relationships/relationships.service.js';
import type { CommentRef, CommentRow, CommentsRepository } from './comments.repository.js';

/**
 * Sends a post's document, as a comment write left it, and the feed signal to every open page (the posts
 * module's publish; ADR 0013).
 */
export interface PostPublisher {
  publishState(state: PostState): Promise<unknown>;
}

/** Request bodies as the shared schemas parsed them: text normalised and within limits. */
type NewCommentBody = z.output<typeof createCommentSchema>;
type CommentEdit = z.output<typeof updateCommentSchema>;

const noPost = () => new NotFound('There is no post with that id. It may have been deleted.');
const noComment = () => new NotFound('There is no comment with that id. It may have been deleted.');

/**
 * Comments and replies on posts (issue: posts, "Comments"). Top-level comments and replies run oldest first,
 * newest last; every committed change bumps the post's comment counters and reaches open pages live.
 */
export class CommentsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly presenter: CommentPresenter,
    private readonly posts: PostPublisher,
    private readonly notifications: NotificationSink,
    private readonly relationships: RelationshipGuard,
    /** The anonymous first page of each post's comments (ADR 0028); none in one-off processes. */
    private readonly cache: ReadCache | null = null,
  ) {}

  /** A page of a post's top-level comments, each with its first replies. */
  async thread(viewer: Viewer | null, postId: string, query: PageQuery): Promise<Page<Thread>> {
    // Without a viewer there are no likes, blocks or mutes: the first page is the same for everyone.
    const shared = viewer === null && query.cursor === undefined;
    const cached = shared ? this.cache?.thread(postId, query.limit) : undefined;
    if (cached) return cached;
    const generation = this.cache?.generation() ?? 0;
    const viewerId = viewer?.uid;
    const [post, rows] = await Promise.all([
      this.comments.findPostAuthor(postId),
      this.comments.topLevel(postId, {
        after: query.cursor,
        take: query.limit + 1,
        ...(viewerId ? { viewerId } : {}),
      }),
    ]);
    // A post the moderators removed is there for its author alone (ADR 0021).
    if (!post || (post.removed && post.authorId !== viewerId)) throw noPost();
    // The post of someone who blocks the viewer, or whom they block, is not there for them (ADR 0022).
    if (viewerId && (await this.relationships.isBlockedEitherWay(viewerId, post.authorId))) {
      throw noPost();
    }
    const page = toPage(rows, query.limit, (row) => row.id);
    // Only threads that have replies are asked for them; a page without any costs no query.
    const replies = await this.comments.firstReplies(
      page.items.filter((row) => row.replyCount > 0).map((row) => row.id),
      limits.repliesPreview,
      viewerId,
    );
    const liked = await this.likedBy(viewer, [...page.items, ...replies]);
    const repliesByParent = new Map<string, Comment[]>();
    for (const reply of replies) {
      if (reply.parentId === null) continue;
      const list = repliesByParent.get(reply.parentId) ?? [];
      list.push(this.present(reply, liked));
      repliesByParent.set(reply.parentId, list);
    }
    const threads = {
      items: page.items.map((row) => ({
        ...this.present(row, liked),
        replies: repliesByParent.get(row.id) ?? [],
      })),
      nextCursor: page.nextCursor,
    };
    if (shared) this.cache?.keepThread(postId, query.limit, threads, generation);
    return threads;
  }

  /** A page of a comment's replies, oldest first. */
  async replies(
    viewer: Viewer | null,
    commentId: string,
    query: PageQuery,
  ): Promise<Page<Comment>> {
    const [parent, rows] = await Promise.all([
      this.comments.findRef(commentId),
      this.comments.replies(commentId, {
        after: query.cursor,
        take: query.limit + 1,
        ...(viewer ? { viewerId: viewer.uid } : {}),
      }),
    ]);
    if (!parent) throw noComment();
    const page = toPage(rows, query.limit, (row) => row.id);
    const liked = await this.likedBy(viewer, page.items);
    return {
      items: page.items.map((row) => this.present(row, liked)),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * Writes a comment, or a reply when `parentId` is given; a reply to a reply joins the top-level thread.
   * The author of the comment replied to hears of a reply, the post's author of a comment, and the people
   * it mentions of a mention; each once, the first of these that applies.
   */
  async create(viewer: Viewer, postId: string, input: NewCommentBody): Promise<Comment> {
    const post = await this.comments.findPostAuthor(postId);
    if (!post || (post.removed && post.authorId !== viewer.uid)) throw noPost();
    if (post.removed) {
      throw new Forbidden('The moderators removed this post, so it takes no new comments.');
    }
    const targets: NotificationTarget[] = [];
    let parentId: string | null = null;
    if (input.parentId !== undefined) {
      const parent = await this.comments.findRef(input.parentId);
      // A comment the moderators removed takes no replies; to anyone but its author it is not there.
      if (!parent || (parent.removed && parent.authorId !== viewer.uid)) throw noComment();
      if (parent.removed) {
        throw new Forbidden('The moderators removed this comment, so it takes no replies.');
      }
      if (parent.postId !== postId) {
        const message = 'You can only reply to a comment on the same post.';
        throw new Invalid(message, { parentId: message });
      }
      // Issue: replies are one level deep.
      parentId = parent.parentId ?? parent.id;
      targets.push({ kind: 'reply', recipientId: parent.authorId });
      await this.relationships.assertNotBlocked(
        viewer.uid,
        parent.authorId,
        "You can't reply to this comment: one of you has blocked the other.",
      );
    }
    targets.push({ kind: 'comment', recipientId: post.authorId });
    await this.relationships.assertNotBlocked(
      viewer.uid,
      post.authorId,
      "You can't comment on this post: one of you has blocked the other.",
    );

    let created: { id: string; post: NotifyingPostState } | undefined;
    try {
      created = await this.comments.create({
        postId,
        parentId,
        authorId: viewer.uid,
        body: input.body,
        targets,
        mentions: mentionedUsernames(input.body),
      });
    } catch (error) {
      // The post or the parent was deleted between the checks above and the write.
      if (parentId !== null && !(await this.comments.findRef(parentId))) throw noComment();
      throw error;
    }
    if (created === undefined) throw noPost();
    await this.posts.publishState(created.post);
    await this.notifications.notified(created.post.notified);
    const row = await this.comments.findById(created.id);
    if (!row) throw noComment();
    // Nobody has liked a comment that did not exist a moment ago: no need to ask.
    return this.present(row, new Set());
  }

  /** The comment's author, and only they, may change its text (not even an administrator). */
  async update(viewer: Viewer, commentId: string, input: CommentEdit): Promise<Comment> {
    const ref = await this.requireRef(viewer, commentId);
    if (ref.authorId !== viewer.uid) throw new Forbidden('You can only edit your own comments.');
    if (ref.removed) {
      throw new Forbidden('The moderators removed this comment, so it can no longer be edited.');
    }
    const post = await this.comments.updateBody(
      ref,
      input.body,
      newlyMentioned(ref.body, input.body),
    );
    if (!post) throw noComment();
    await this.posts.publishState(post);
    await this.notifications.notified(post.notified);
    return this.read(viewer, commentId);
  }

  /** The comment's author, the post's author or an administrator may delete it; its replies go with it. */
  async delete(viewer: Viewer, commentId: string): Promise<void> {
    const ref = await this.requireRef(viewer, commentId);
    const allowed =
      ref.authorId === viewer.uid || ref.postAuthorId === viewer.uid || viewer.role === 'admin';
    if (!allowed) {
      throw new Forbidden(
        'Only its author, the author of the post or an administrator can delete a comment.',
      );
    }
    const post = await this.comments.delete(ref);
    if (!post) throw noComment();
    await this.posts.publishState(post);
    await this.notifications.notified(post.notified);
  }

  /** Likes a comment; liking it again is not an error and changes nothing. */
  like(viewer: Viewer, commentId: string): Promise<LikeState> {
    return this.setLike(viewer, commentId, true);
  }

  /** Withdraws a like; unliking a comment one does not like changes nothing. */
  unlike(viewer: Viewer, commentId: string): Promise<LikeState> {
    return this.setLike(viewer, commentId, false);
  }

  private async setLike(viewer: Viewer, commentId: string, liked: boolean): Promise<LikeState> {
    const ref = await this.requireRef(viewer, commentId);
    if (liked) {
      await this.relationships.assertNotBlocked(
        viewer.uid,
        ref.authorId,
        "You can't like this comment: one of you has blocked the other.",
      );
    }
    let changed: NotifyingPostState | undefined;
    try {
      changed = liked
        ? await this.comments.like(ref, viewer.uid)
        : await this.comments.unlike(ref, viewer.uid);
    } catch (error) {
      // The comment was deleted between the check above and the write.
      if (!(await this.comments.findRef(commentId))) throw noComment();
      throw error;
    }
    const state = await this.comments.likeState(commentId, viewer.uid);
    if (!state) throw noComment();
    if (changed) {
      await this.posts.publishState(changed);
      await this.notifications.notified(changed.notified);
    }
    return state;
  }

  /** The comment as the viewer may reach it: one the moderators removed is there for its author alone. */
  private async requireRef(viewer: Viewer, commentId: string): Promise<CommentRef> {
    const ref = await this.comments.findRef(commentId);
    if (!ref || (ref.removed && ref.authorId !== viewer.uid)) throw noComment();
    return ref;
  }

  private async read(viewer: Viewer, commentId: string): Promise<Comment> {
    const row = await this.comments.findById(commentId);
    if (!row) throw noComment();
    const liked = await this.comments.likedBy(viewer.uid, [row.id]);
    return this.present(row, liked);
  }

  /** Which of `rows` the viewer likes, in one query; nothing for anonymous readers. */
  private likedBy(viewer: Viewer | null, rows: readonly CommentRow[]): Promise<Set<string>> {
    if (!viewer) return Promise.resolve(new Set());
    return this.comments.likedBy(
      viewer.uid,
      rows.map((row) => row.id),
    );
  }

  private present(row: CommentRow, liked: ReadonlySet<string>): Comment {
    return this.presenter.comment(row, liked.has(row.id));
  }
}
