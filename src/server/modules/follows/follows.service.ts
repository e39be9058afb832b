import type { FollowListItem, FollowState, Relationship } from '../../../shared/schemas/follow.js';
import type { Page, PageQuery } from '../../../shared/schemas/post.js';
import { Invalid, NotFound } from '../../errors.js';
import type { Viewer } from '../../plugins/viewer.js';
import { toPage } from '../pagination.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { UsersService } from '../users/users.service.js';
import type { NotificationSink } from '../notifications/notifications.service.js';
import type { RelationshipGuard } from '../relationships/relationships.service.js';
import type { FullRelationship } from '../../../shared/schemas/relationship.js';
import type { FollowChange, FollowRow, FollowsRepository } from './follows.repository.js';

const noUser = () => new NotFound('There is no user with that id.');

/**
 * Follows (issue: posts, "Follows"): following is idempotent, the counters on both users change with the
 * follow itself, and both users' documents go out live so open profiles show the new counts.
 */
export class FollowsService {
  constructor(
    private readonly follows: FollowsRepository,
    private readonly users: UsersService,
    private readonly mediaUrl: (key: string) => string,
    private readonly notifications: NotificationSink,
    private readonly blocks: RelationshipGuard,
  ) {}

  /** Follows `uid`; following someone again is not an error and changes nothing. */
  follow(viewer: Viewer, uid: string): Promise<FollowState> {
    return this.set(viewer, uid, true);
  }

  /** Stops following `uid`; unfollowing someone one does not follow changes nothing. */
  unfollow(viewer: Viewer, uid: string): Promise<FollowState> {
    return this.set(viewer, uid, false);
  }

  /** How the viewer and `uid` are connected; an anonymous viewer follows no one and no one follows them. */
  async relationship(viewer: Viewer | null, uid: string): Promise<FullRelationship> {
    if (!(await this.follows.userExists(uid))) throw noUser();
    const [follows, blocks] = await Promise.all([
      !viewer || viewer.uid === uid
        ? { following: false, followedBy: false }
        : this.follows.relationship(viewer.uid, uid),
      this.blocks.state(viewer, uid),
    ]);
    return { ...follows, ...blocks };
  }

  /** Who follows `uid`, newest first. */
  async followers(
    viewer: Viewer | null,
    uid: string,
    query: PageQuery,
  ): Promise<Page<FollowListItem>> {
    const [exists, rows] = await Promise.all([
      this.follows.userExists(uid),
      this.follows.followers(uid, {
        before: query.cursor,
        take: query.limit + 1,
        ...(viewer ? { viewerId: viewer.uid } : {}),
      }),
    ]);
    if (!exists) throw noUser();
    return this.page(viewer, rows, query.limit);
  }

  /** Whom `uid` follows, newest first. */
  async following(
    viewer: Viewer | null,
    uid: string,
    query: PageQuery,
  ): Promise<Page<FollowListItem>> {
    const [exists, rows] = await Promise.all([
      this.follows.userExists(uid),
      this.follows.following(uid, {
        before: query.cursor,
        take: query.limit + 1,
        ...(viewer ? { viewerId: viewer.uid } : {}),
      }),
    ]);
    if (!exists) throw noUser();
    return this.page(viewer, rows, query.limit);
  }

  private async set(viewer: Viewer, uid: string, following: boolean): Promise<FollowState> {
    if (uid === viewer.uid) {
      throw new Invalid(following ? "You can't follow yourself." : "You can't unfollow yourself.");
    }
    if (!(await this.follows.userExists(uid))) throw noUser();
    if (following) {
      await this.blocks.assertNotBlocked(
        viewer.uid,
        uid,
        "You can't follow this person: one of you has blocked the other.",
      );
    }
    let changed: FollowChange | null;
    try {
      changed = following
        ? await this.follows.follow(viewer.uid, uid)
        : await this.follows.unfollow(viewer.uid, uid);
    } catch (error) {
      // The account was deleted between the check above and the write.
      if (!(await this.follows.userExists(uid))) throw noUser();
      throw error;
    }
    if (!changed) return { following, followerCount: await this.follows.followerCount(uid) };
    // Both documents as the follow left them: nothing is read again to publish them (ADR 0013).
    await this.users.publishRecords(changed.records);
    await this.notifications.notified(changed.notified);
    const followee = changed.records.find((record) => record.id === uid);
    return { following, followerCount: followee?.followerCount ?? 0 };
  }

  private async page(
    viewer: Viewer | null,
    rows: readonly FollowRow[],
    limit: number,
  ): Promise<Page<FollowListItem>> {
    const page = toPage(rows, limit, (row) => row.followId);
    const relationships = viewer
      ? await this.follows.relationships(
          viewer.uid,
          page.items.map((row) => row.authorUid).filter((uid) => uid !== viewer.uid),
        )
      : new Map<string, Relationship>();
    return {
      items: page.items.map((row) => ({
        ...presentAuthor(row, this.mediaUrl),
        relationship: relationships.get(row.authorUid) ?? null,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
