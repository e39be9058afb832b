import { randomBytes } from 'node:crypto';
import { APIError } from 'better-auth/api';
import Bowser from 'bowser';
import type { Logger } from 'pino';
import { deletionFanOut } from '../../../shared/limits.js';
import { usernameReservedUntil } from '../../../shared/username-change.js';
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  SessionInfo,
} from '../../../shared/schemas/account.js';
import type { Me } from '../../../shared/schemas/user.js';
import type { Auth } from '../../auth/auth.js';
import type { SessionCache } from '../../auth/session-cache.js';
import type { Config } from '../../config.js';
import { Conflict, DomainError, Invalid, NotFound } from '../../errors.js';
import { actionMail, type Mailer } from '../../mail/mailer.js';
import { securityMail, sendNotice, type SecurityChange } from '../../mail/security-mail.js';
import type { MediaStorage } from '../../media/storage.js';
import type { Viewer } from '../../plugins/viewer.js';
import { passwordProblem } from '../auth/password-policy.js';
import type { UserRecord, UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { PostsService } from '../posts/posts.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { AccountRepository, DeletionFanOut } from './account.repository.js';

const emailChangeTtlMs = 24 * 60 * 60 * 1000;

const wrongPassword = (field: string) =>
  new Invalid('That password is not right.', { [field]: 'That password is not right.' });

/** "Firefox on Windows" from a user-agent string. */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name || null;
  const os = parsed.os.name || null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os;
}

/** One batch of documents to send after an account's deletion. */
export type DeletionNotice =
  | { kind: 'users'; ids: string[] }
  | { kind: 'posts'; ids: string[]; feed: boolean }
  | { kind: 'bells'; ids: string[] };

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

/**
 * The batches that tell open pages about a deleted account, in the order they go out: its own document, then
 * the newest posts with their feed changes, then the people whose counts changed, then the cheaper signal (a
 * post's document alone) for the older posts. Each list arrives newest first and bounded by the repository.
 */
export function deletionNotices(
  uid: string,
  fanOut: DeletionFanOut,
  bounds: { feedPosts: number; batch: number },
): DeletionNotice[] {
  const posts = [fanOut.touchedPosts, fanOut.ownPosts];
  return [
    { kind: 'users', ids: [uid] },
    ...posts.flatMap((ids) =>
      batches(ids.slice(0, bounds.feedPosts), bounds.batch).map((batch): DeletionNotice => ({
        kind: 'posts',
        ids: batch,
        feed: true,
      })),
    ),
    ...batches(fanOut.relatedUsers, bounds.batch).map((batch): DeletionNotice => ({
      kind: 'users',
      ids: batch,
    })),
    ...posts.flatMap((ids) =>
      batches(ids.slice(bounds.feedPosts), bounds.batch).map((batch): DeletionNotice => ({
        kind: 'posts',
        ids: batch,
        feed: false,
      })),
    ),
    ...batches(fanOut.notifiedUsers, bounds.batch).map((batch): DeletionNotice => ({
      kind: 'bells',
      ids: batch,
    })),
  ];
}

/** Account settings (issue: profiles §5): email, password, sessions, deletion. */
export class AccountService {
  constructor(
    private readonly auth: Auth,
    private readonly config: Config,
    private readonly accounts: AccountRepository,
    private readonly usersRepository: UsersRepository,
    private readonly users: UsersService,
    private readonly posts: PostsService,
    private readonly storage: MediaStorage,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly sessions: SessionCache,
    private readonly notifications: Pick<NotificationsService, 'publishUnread'>,
  ) {}

  private async checkPassword(uid: string, password: string, field: string): Promise<void> {
    const hash = await this.accounts.passwordHash(uid);
    const context = await this.auth.$context;
    if (!hash || !(await context.password.verify({ hash, password }))) throw wrongPassword(field);
  }

  /** Sends a confirmation link to the new address; the email changes only when it is followed. */
  async requestEmailChange(viewer: Viewer, input: ChangeEmailBody): Promise<void> {
    const user = await this.usersRepository.findById(viewer.uid);
    if (!user) throw new NotFound('Your account no longer exists.');
    await this.checkPassword(viewer.uid, input.password, 'password');
    const newEmail = input.newEmail.toLowerCase();
    if (newEmail === user.email) {
      throw new Invalid('That is already your email address.', {
        newEmail: 'That is already your email address.',
      });
    }
    if (await this.usersRepository.findByEmail(newEmail)) {
      throw new Conflict('Another account uses that address.', {
        newEmail: 'Another account uses that address.',
      });
    }
    const token = randomBytes(24).toString('base64url');
    await this.accounts.saveEmailChange(
      token,
      viewer.uid,
      newEmail,
      new Date(Date.now() + emailChangeTtlMs),
    );
    const url = `${this.config.publicUrl}/settings/account?emailToken=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: newEmail,
      subject: `Confirm your new ${this.config.instanceName} email address`,
      link: url,
      ...actionMail({
        instanceName: this.config.instanceName,
        greeting: `Hello ${user.name},`,
        lines: [
          `You asked to use this address for your ${this.config.instanceName} account @${user.username ?? ''}.`,
          'Confirm it with the link below within 24 hours; until then your old address stays in use.',
        ],
        actionLabel: 'Confirm this address',
        actionUrl: url,
        footer: "If you didn't ask for this, ignore this email.",
      }),
    });
  }

  /** Follows a confirmation link: the address becomes the account's, and the old one is told. */
  async confirmEmailChange(token: string): Promise<Me> {
    const pending = await this.accounts.takeEmailChange(token);
    const invalid = new DomainError(
      400,
      'invalid_token',
      'This confirmation link has expired or was already used. Ask for a new one in your account settings.',
    );
    if (!pending) throw invalid;
    const user = await this.usersRepository.findById(pending.uid);
    if (!user) throw invalid;
    const holder = await this.usersRepository.findByEmail(pending.email);
    if (holder && holder.id !== user.id) {
      throw new Conflict('Another account started using that address in the meantime.');
    }
    await this.accounts.setEmail(user.id, pending.email);
    // To the previous address: whoever holds the new one may not be the owner.
    this.notify(user, { kind: 'email-changed', newEmail: pending.email }, null);
    const updated = await this.usersRepository.findById(user.id);
    if (!updated) throw invalid;
    return this.users.presenter.me(updated);
  }

  /** Returns Better Auth's cookies: a fresh session when the others were signed out. */
  async changePassword(
    viewer: Viewer,
    input: ChangePasswordBody,
    headers: Headers,
  ): Promise<string[]> {
    const user = await this.usersRepository.findById(viewer.uid);
    if (!user) throw new NotFound('Your account no longer exists.');
    const weak = passwordProblem(input.newPassword, {
      email: user.email,
      username: user.username ?? undefined,
    });
    if (weak) throw new Invalid('Choose a stronger password.', { newPassword: weak });
    if (input.newPassword === input.currentPassword) {
      throw new Invalid('Choose a password different from your current one.', {
        newPassword: 'Choose a password different from your current one.',
      });
    }
    try {
      const { headers: responseHeaders } = await this.auth.api.changePassword({
        body: {
          currentPassword: input.currentPassword,
          newPassword: input.newPassword,
          revokeOtherSessions: input.signOutOtherSessions ?? false,
        },
        headers,
        returnHeaders: true,
      });
      this.notify(user, { kind: 'password-changed' }, describeDevice(headers.get('user-agent')));
      return responseHeaders.getSetCookie();
    } catch (error) {
      if (error instanceof APIError && error.statusCode < 500)
        throw wrongPassword('currentPassword');
      throw error;
    }
  }

  /** Tells the account's address about a saved change; never fails or delays the change itself. */
  private notify(user: UserRecord, change: SecurityChange, device: string | null): void {
    const message = securityMail(this.config, user, change, { at: new Date(), device });
    sendNotice(this.mailer, this.log, message);
  }

  async listSessions(viewer: Viewer): Promise<SessionInfo[]> {
    const rows = await this.accounts.activeSessions(viewer.uid);
    return rows.map((row) => ({
      id: row.id,
      current: row.id === viewer.sessionId,
      device: describeDevice(row.userAgent),
      ipAddress: row.ipAddress,
      // No geolocation database ships with Hearth; the address itself is shown instead.
      location: null,
      createdAt: row.createdAt,
      lastSeenAt: row.updatedAt,
    }));
  }

  async revokeSession(viewer: Viewer, sessionId: string): Promise<void> {
    if (!(await this.accounts.deleteSession(viewer.uid, sessionId))) {
      throw new NotFound('That session has already ended.');
    }
    await this.sessions.sessionsEnded({ uid: viewer.uid, sessionIds: [sessionId] });
  }

  /**
   * Deletes the account, its media and sessions; the username stays reserved (issue: profiles). Then every
   * open page learns what went with it (issue item 5).
   */
  async deleteAccount(viewer: Viewer, password: string): Promise<void> {
    await this.checkPassword(viewer.uid, password, 'password');
    await this.removeAccount(viewer.uid);
  }

  /**
   * The deletion itself, without the password: the owner's, after the check above, or an administrator's
   * from the console or the command line (issue: moderation and administration §4), with the same fan-out.
   */
  async removeAccount(uid: string): Promise<void> {
    const viewer = { uid };
    const deleted = await this.accounts.deleteAccount(
      viewer.uid,
      usernameReservedUntil(Date.now()),
      { posts: deletionFanOut.posts, users: deletionFanOut.users },
    );
    await this.sessions.sessionsEnded({ uid: viewer.uid, sessionIds: null });
    if (!deleted) return;
    await Promise.all(
      deleted.storageKeys.map((key) =>
        this.storage.delete(key).catch((error: unknown) => {
          this.log.warn({ err: error, key }, 'could not delete a stored file');
        }),
      ),
    );
    await this.announceDeletion(viewer.uid, deleted.fanOut);
  }

  /**
   * Sends the deleted account's document (null), its posts' deletions, the new counts and comment revisions
   * of the posts it touched, and the new counts of the people it followed or who followed it, in bounded
   * batches (limits.ts `deletionFanOut`). The deletion is committed: a failure here is logged, never thrown,
   * and stops the rest, since the next batch would meet the same broken database.
   */
  private async announceDeletion(uid: string, fanOut: DeletionFanOut): Promise<void> {
    try {
      for (const step of deletionNotices(uid, fanOut, deletionFanOut)) {
        switch (step.kind) {
          case 'users':
            await this.users.publishMany(step.ids);
            break;
          case 'posts':
            await this.posts.publishMany(step.ids, { feed: step.feed });
            break;
          case 'bells':
            await this.notifications.publishUnread(step.ids);
            break;
        }
        // One batch at a time, with the event loop free in between: requests go on being served.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.log.warn({ err: error, uid }, 'could not tell open pages about a deleted account');
    }
  }

  /** Set-Cookie headers that end the session in the browser. */
  async expiredSessionCookies(): Promise<string[]> {
    const { authCookies } = await this.auth.$context;
    return [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken].map(
      (cookie) =>
        `${cookie.name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${cookie.attributes.secure ? '; Secure' : ''}`,
    );
  }
}
