import type { ProfileImageField, ProfileUpdate } from '../../../shared/schemas/profile.js';
import type { UserDocument } from '../../../shared/schemas/user.js';
import {
  usernameCooldownEnds,
  usernameCooldownMessage,
  usernameReservedUntil,
} from '../../../shared/username-change.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../../errors.js';
import type { FormFile } from '../../media/multipart.js';
import { profileRenditions } from '../../media/renditions.js';
import {
  imageFieldError,
  ImageRejected,
  UploadBatch,
  type MediaUploads,
  type NewMedia,
} from '../../media/stored-image.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import {
  type ImageChange,
  type ProfileChange,
  type ProfilesRepository,
} from './profiles.repository.js';

const formatDate = (date: Date) =>
  date.toLocaleDateString('en', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Profile editing (issue: profiles): fields, username changes, avatar and cover images. */
export class ProfilesService {
  constructor(
    private readonly profiles: ProfilesRepository,
    private readonly usersRepository: UsersRepository,
    private readonly users: UsersService,
    private readonly uploads: MediaUploads,
  ) {}

  /**
   * Applies an edit by the owner: the parsed fields and the form's `avatar` and `cover` files. All of it
   * is saved, or — on any bad field or image — none of it, and no file is left behind.
   */
  async update(
    viewer: Viewer,
    uid: string,
    update: ProfileUpdate,
    images: FormFile[],
  ): Promise<UserDocument> {
    const target = await this.usersRepository.findById(uid);
    if (!target) throw new NotFound('There is no user with that id.');
    // spec §5: the owner edits their own profile. Administrators are no exception: a rename by anyone else
    // would also start the owner's cooldown, and moderation acts through its own audited tools.
    if (viewer.uid !== uid) throw new Forbidden('You can only edit your own profile.');
    const change: ProfileChange = { fields: {} };

    for (const key of ['firstName', 'lastName', 'displayName', 'bio', 'website'] as const) {
      if (update[key] !== undefined) change.fields[key] = update[key];
    }
    const first = update.firstName !== undefined ? update.firstName : target.firstName;
    const last = update.lastName !== undefined ? update.lastName : target.lastName;
    const fullName = [first, last].filter(Boolean).join(' ');
    if (fullName !== target.name) change.fields.name = fullName || (target.username ?? 'Member');

    if (update.username !== undefined && update.username !== target.username) {
      change.username = await this.usernameChange(target, update.username);
    }

    const uploads = new Map(images.map((image) => [image.field, image.body]));
    const batch = new UploadBatch();
    try {
      for (const slot of ['avatar', 'cover'] as const) {
        const upload = uploads.get(slot);
        const remove = slot === 'avatar' ? update.removeAvatar : update.removeCover;
        const alt = slot === 'avatar' ? update.avatarAlt : update.coverAlt;
        if (upload && remove) {
          throw new Invalid('Choose a new image or remove the current one, not both.', {
            [slot]: 'Choose a new image or remove the current one, not both.',
          });
        }
        let imageChange: ImageChange | undefined;
        if (upload) {
          imageChange = {
            kind: 'replace',
            media: await this.storeImage(slot, upload, alt ?? null, batch),
          };
        } else if (remove) {
          imageChange = { kind: 'remove' };
        } else if (alt !== undefined) {
          imageChange = { kind: 'alt', alt };
        }
        if (imageChange) change[slot] = imageChange;
      }

      const orphaned = await this.profiles.apply(uid, change).catch(async (error: unknown) => {
        // A rename that raced another for the same name: report it as taken, not as a failure.
        if (
          change.username &&
          (await this.usersRepository.isUsernameHeld(change.username.next, uid))
        ) {
          throw new Conflict('That username was just taken.', {
            username: 'That username is taken. Please choose another.',
          });
        }
        throw error;
      });
      await this.uploads.committed(batch);
      await this.uploads.remove(orphaned);
    } finally {
      // Anything stored for an update that did not land is deleted (a sweep does it if this process dies).
      await this.uploads.discard(batch);
    }

    // Read once: the answer and the document every open page receives (ADR 0013).
    const document = await this.users.getById(uid);
    await this.users.publishDocument(uid, document);
    return document;
  }

  private async usernameChange(
    target: { id: string; username: string | null; usernameChangedAt: string | null },
    next: string,
  ): Promise<NonNullable<ProfileChange['username']>> {
    const allowedAt = usernameCooldownEnds(target.usernameChangedAt, Date.now());
    if (allowedAt) {
      const message = usernameCooldownMessage(formatDate(allowedAt));
      throw new Invalid(message, { username: message });
    }
    if (await this.usersRepository.isUsernameHeld(next, target.id)) {
      throw new Conflict('That username is taken.', {
        username: 'That username is taken. Please choose another.',
      });
    }
    return {
      next,
      previous: target.username,
      reservedUntil: usernameReservedUntil(Date.now()).toISOString(),
    };
  }

  /** Renders and stores an image's renditions, recorded in `batch` before they are written. */
  private async storeImage(
    slot: ProfileImageField,
    body: Buffer,
    alt: string | null,
    batch: UploadBatch,
  ): Promise<NewMedia> {
    try {
      return await this.uploads.store(
        { purpose: slot, body, alt, specs: profileRenditions[slot] },
        batch,
      );
    } catch (error) {
      if (error instanceof ImageRejected) throw imageFieldError(slot, error);
      throw error;
    }
  }
}
