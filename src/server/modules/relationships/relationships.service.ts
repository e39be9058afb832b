import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import { limits } from '../../../shared/limits.js';
import { relationshipsTopic } from '../../../shared/realtime-protocol.js';
import type { Page } from '../../../shared/schemas/post.js';
import {
  muteDurationMs,
  type FullRelationship,
  type HiddenAuthors,
  type MuteDuration,
  type RelationshipListItem,
  type RelationshipListQuery,
  type RelationshipsSignal,
} from '../../../shared/schemas/relationship.js';
import { Forbidden, Invalid, NotFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { NotificationSink } from '../notifications/notifications.service.js';
import { toPage } from '../pagination.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { UsersService } from '../users/users.service.js';
import type {
  BlockMuteState,
  RelationshipListBounds,
  RelationshipRow,
  RelationshipsRepository,
} from './relationships.repository.js';

/** How often mutes that have run out are deleted (they stop applying by time before that). */
const sweepEveryMs = 5 * 60_000;
/** Mutes deleted per sweep. */
const sweepBatch = 500;

const noUser = () => new NotFound('There is no user with that id.');

/** What other modules ask of block and mute before letting one person act on another's content. */
export interface RelationshipGuard {
  /** Whether either user blocks the other. */
  isBlockedEitherWay(a: string, b: string): Promise<boolean>;
  /** Throws a 403 with `message` when either user blocks the other (anonymous viewers pass). */
  assertNotBlocked(viewerUid: string, otherUid: string, message: string): Promise<void>;
  /** Blocks and mutes between the viewer and `uid`; all false when signed out or for oneself. */
  state(viewer: Viewer | null, uid: string): Promise<BlockMuteState>;
}

/**
 * Block and mute (issue: moderation and administration §2, ADR 0022). Who may act is decided here, once:
 * any active account, on anyone but themself. Every change reaches the open tabs of the people it concerns
 * through their `relationships/{uid}` topic; a block also publishes both users' documents (follow counts).
 */
export class RelationshipsService implements RelationshipGuard {
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(
    private readonly relationships: RelationshipsRepository,
    private readonly users: UsersService,
    private readonly bus: EventBus,
    private readonly mediaUrl: (key: string) => string,
    private readonly notifications: NotificationSink,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    if (a === b) return Promise.resolve(false);
    return this.relationships.isBlockedEitherWay(a, b);
  }

  async assertNotBlocked(viewerUid: string, otherUid: string, message: string): Promise<void> {
    if (await this.isBlockedEitherWay(viewerUid, otherUid)) throw new Forbidden(message);
  }

  /** Blocks `uid`: follows between the two end; blocking again changes nothing. */
  async block(viewer: Viewer, uid: string): Promise<FullRelationship> {
    await this.checkTarget(viewer, uid, "You can't block yourself.");
    const changed = await this.guardDeleted(uid, () => this.relationships.block(viewer.uid, uid));
    if (changed) {
      await this.users.publishRecords(changed.records);
      await this.notifications.notified({ deliveries: [], withdrawn: changed.withdrawn });
      await this.publishSignals([viewer.uid, uid]);
    }
    return this.relationship(viewer, uid);
  }

  async unblock(viewer: Viewer, uid: string): Promise<FullRelationship> {
    await this.checkTarget(viewer, uid, "You can't unblock yourself.");
    if (await this.relationships.unblock(viewer.uid, uid)) {
      await this.publishSignals([viewer.uid, uid]);
    }
    return this.relationship(viewer, uid);
  }

  /** Mutes `uid` for `duration`; muting again replaces the end. The muted person is never told. */
  async mute(viewer: Viewer, uid: string, duration: MuteDuration): Promise<FullRelationship> {
    await this.checkTarget(viewer, uid, "You can't mute yourself.");
    const expiresAt =
      duration === 'indefinite'
        ? null
        : new Date(Date.now() + muteDurationMs[duration]).toISOString();
    await this.guardDeleted(uid, () => this.relationships.mute(viewer.uid, uid, expiresAt));
    await this.publishSignals([viewer.uid]);
    return this.relationship(viewer, uid);
  }

  async unmute(viewer: Viewer, uid: string): Promise<FullRelationship> {
    await this.checkTarget(viewer, uid, "You can't unmute yourself.");
    if (await this.relationships.unmute(viewer.uid, uid)) await this.publishSignals([viewer.uid]);
    return this.relationship(viewer, uid);
  }

  /** Blocks and mutes between the viewer and `uid`; all false when signed out or for oneself. */
  async state(viewer: Viewer | null, uid: string): Promise<BlockMuteState> {
    if (!viewer || viewer.uid === uid) {
      return { blocking: false, blockedBy: false, muting: false, muteExpiresAt: null };
    }
    return this.relationships.state(viewer.uid, uid);
  }

  async blocks(viewer: Viewer, query: RelationshipListQuery): Promise<Page<RelationshipListItem>> {
    const rows = await this.relationships.blocks(viewer.uid, bounds(query));
    return this.page(rows, query.limit);
  }

  async mutes(viewer: Viewer, query: RelationshipListQuery): Promise<Page<RelationshipListItem>> {
    const rows = await this.relationships.mutes(viewer.uid, bounds(query));
    return this.page(rows, query.limit);
  }

  /** Everyone whose content the viewer does not see, for the web app to drop live arrivals. */
  async hiddenAuthors(viewerUid: string): Promise<HiddenAuthors> {
    const max = limits.relationships.hiddenAuthorsMax;
    const rows = await this.relationships.hidden(viewerUid, max);
    const authors = [
      ...new Set([...rows.blocking, ...rows.blockedBy, ...rows.muting.map((row) => row.uid)]),
    ];
    const truncated =
      rows.blocking.length >= max || rows.blockedBy.length >= max || rows.muting.length >= max;
    return { authors: authors.slice(0, max), truncated: truncated || authors.length > max };
  }

  /** The live signal of whom `uid` hides: a digest of the set, so any change moves it. */
  async signal(uid: string): Promise<RelationshipsSignal> {
    const rows = await this.relationships.hidden(uid, limits.relationships.hiddenAuthorsMax);
    const revision = hash('sha256', JSON.stringify(rows), 'base64url');
    return { revision: revision.slice(0, 22) };
  }

  /** Sweeps mutes that have run out every few minutes until close(). */
  start(): void {
    this.#timer = setInterval(() => {
      this.#sweeping = this.sweep();
    }, sweepEveryMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  /** Deletes mutes that have run out and tells their muters' tabs. Never throws. */
  async sweep(): Promise<void> {
    try {
      const muters = await this.relationships.sweepExpiredMutes(sweepBatch);
      await this.publishSignals(muters);
    } catch (error) {
      this.log.warn({ err: error }, 'could not sweep expired mutes');
    }
  }

  private async relationship(viewer: Viewer, uid: string): Promise<FullRelationship> {
    const [follows, state] = await Promise.all([
      this.relationships.follows(viewer.uid, uid),
      this.relationships.state(viewer.uid, uid),
    ]);
    return { ...follows, ...state };
  }

  private async checkTarget(viewer: Viewer, uid: string, self: string): Promise<void> {
    if (uid === viewer.uid) throw new Invalid(self);
    if (!(await this.relationships.userExists(uid))) throw noUser();
  }

  /** Runs a write; when it fails because the account went in the meantime, answers 404. */
  private async guardDeleted<T>(uid: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(await this.relationships.userExists(uid))) throw noUser();
      throw error;
    }
  }

  /** Publishes the relationships signal of each account. Never throws: the change is saved. */
  private async publishSignals(uids: readonly string[]): Promise<void> {
    await Promise.all(
      [...new Set(uids)].map(async (uid) => {
        try {
          await this.bus.publish({ topic: relationshipsTopic(uid), data: await this.signal(uid) });
        } catch (error) {
          this.log.warn({ err: error }, 'could not publish a relationships signal');
        }
      }),
    );
  }

  private page(rows: readonly RelationshipRow[], limit: number): Page<RelationshipListItem> {
    const page = toPage(rows, limit, (row) => `${row.since}~${row.authorUid}`);
    return {
      items: page.items.map((row) => ({
        ...presentAuthor(row, this.mediaUrl),
        since: row.since,
        expiresAt: row.expiresAt,
      })),
      nextCursor: page.nextCursor,
    };
  }
}

function bounds(query: RelationshipListQuery): RelationshipListBounds {
  const take = query.limit + 1;
  if (!query.cursor) return { take };
  const split = query.cursor.indexOf('~');
  return {
    before: { since: query.cursor.slice(0, split), uid: query.cursor.slice(split + 1) },
    take,
  };
}
