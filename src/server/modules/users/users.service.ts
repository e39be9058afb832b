import { mentionedUsernames } from '../../../shared/mentions.js';
import type { UserDocument } from '../../../shared/schemas/user.js';
import type { Role } from '../../../shared/roles.js';
import { userTopic } from '../../../shared/realtime.js';
import type { ReadCache } from '../../cache/read-cache.js';
import { NotFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { UserPresenter } from './users.presenter.js';
import type { UserRecord, UsersRepository } from './users.repository.js';

/** Reading user documents, and the operator changes that every open page must see live. */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly bus: EventBus,
    readonly presenter: UserPresenter,
    /** Profiles by username (ADR 0028); none in one-off processes. */
    private readonly cache: ReadCache | null = null,
  ) {}

  async getById(uid: string): Promise<UserDocument> {
    const row = await this.users.findById(uid);
    if (!row) throw new NotFound('There is no user with that id.');
    return this.presenter.user(row);
  }

  /** Case-insensitive; a recently changed username still finds its account (issue: profiles). */
  async getByUsername(username: string): Promise<UserDocument> {
    const name = username.toLowerCase();
    const cached = this.cache?.profile(name);
    if (cached) return cached;
    const generation = this.cache?.generation() ?? 0;
    const row = await this.users.findByUsername(name);
    if (row) {
      const document = this.presenter.user(row);
      // Kept under its current name only: an old name's redirect is looked up each time.
      this.cache?.keepProfile(document, generation, {
        mentions: row.bio !== null && mentionedUsernames(row.bio).length > 0,
        // A suspension that runs out changes the document with no write to announce it.
        expiresAt:
          document.suspended && row.suspendedUntil ? Date.parse(row.suspendedUntil) : Infinity,
      });
      return document;
    }
    const movedTo = await this.users.redirectFor(name);
    const moved = movedTo ? await this.users.findById(movedTo) : undefined;
    if (!moved) throw new NotFound(`There is no one called @${name} here.`);
    return this.presenter.user(moved);
  }

  /** The current document of a topic subscriber, or null when the user does not exist. */
  async findDocument(uid: string): Promise<UserDocument | null> {
    const row = await this.users.findById(uid);
    return row ? this.presenter.user(row) : null;
  }

  async requireRowByUsername(username: string): Promise<UserRecord> {
    const row = await this.users.findByUsername(username);
    if (!row) throw new NotFound(`There is no user called @${username.toLowerCase()}.`);
    return row;
  }

  listRows(limit: number, offset: number): Promise<UserRecord[]> {
    return this.users.list(limit, offset);
  }

  async setRole(username: string, role: Role): Promise<UserDocument> {
    const row = await this.requireRowByUsername(username);
    return this.change(row.id, { role });
  }

  async setActive(username: string, active: boolean): Promise<UserDocument> {
    const row = await this.requireRowByUsername(username);
    return this.change(row.id, { active });
  }

  /**
   * Reads a user's current document and sends it to every subscriber of `users/{uid}` (DESIGN.md
   * "Realtime"), for a caller that holds none; one that does sends it with `publishDocument` (ADR 0013).
   */
  async publish(uid: string): Promise<void> {
    await this.publishDocument(uid, await this.findDocument(uid));
  }

  /** Sends a user's document the caller already holds; null once the account is gone. */
  async publishDocument(uid: string, document: UserDocument | null): Promise<void> {
    await this.bus.publish({ topic: userTopic(uid), data: document });
  }

  /** Sends the documents of users as a write left them (read in its own transaction). */
  async publishRecords(records: readonly UserRecord[]): Promise<void> {
    await Promise.all(
      records.map((record) => this.publishDocument(record.id, this.presenter.user(record))),
    );
  }

  /** Sends many users' documents at once (null for one that is gone), read in one query. */
  async publishMany(uids: readonly string[]): Promise<void> {
    const rows = await this.users.findByIds(uids);
    const documents = new Map(rows.map((row) => [row.id, this.presenter.user(row)]));
    await Promise.all(
      uids.map((uid) =>
        this.bus.publish({ topic: userTopic(uid), data: documents.get(uid) ?? null }),
      ),
    );
  }

  private async change(
    uid: string,
    changes: { role?: Role; active?: boolean },
  ): Promise<UserDocument> {
    const row = await this.users.update(uid, changes);
    if (!row) throw new NotFound('That user no longer exists.');
    const document = this.presenter.user(row);
    await this.publishDocument(uid, document);
    return document;
  }
}
