import type { Role, UserDocument } from '../../../shared/schemas/user.js';
import { userTopic } from '../../../shared/realtime.js';
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
  ) {}

  async getById(uid: string): Promise<UserDocument> {
    const row = await this.users.findById(uid);
    if (!row) throw new NotFound('There is no user with that id.');
    return this.presenter.user(row);
  }

  /** Case-insensitive; a recently changed username still finds its account (issue: profiles). */
  async getByUsername(username: string): Promise<UserDocument> {
    const name = username.toLowerCase();
    let row = await this.users.findByUsername(name);
    if (!row) {
      const movedTo = await this.users.redirectFor(name);
      if (movedTo) row = await this.users.findById(movedTo);
    }
    if (!row) throw new NotFound(`There is no one called @${name} here.`);
    return this.presenter.user(row);
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

  /** Sends the whole document to every subscriber of `users/{uid}` (DESIGN.md "Realtime"). */
  async publish(uid: string): Promise<void> {
    await this.bus.publish({ topic: userTopic(uid), data: await this.findDocument(uid) });
  }

  private async change(
    uid: string,
    changes: { role?: Role; active?: boolean },
  ): Promise<UserDocument> {
    const row = await this.users.update(uid, changes);
    if (!row) throw new NotFound('That user no longer exists.');
    const document = this.presenter.user(row);
    await this.bus.publish({ topic: userTopic(uid), data: document });
    return document;
  }
}
