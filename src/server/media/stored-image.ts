import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { orphanMedia } from '../../shared/limits.js';
import type { MediaPurpose } from '../db/schema.js';
import { DomainError } from '../errors.js';
import { ImageRejected, processImage, type RenditionSpec } from './image-pipeline.js';
import type { StoredRenditions } from './renditions.js';
import type { PendingUploadsRepository } from './pending-uploads.repository.js';
import type { MediaStorage } from './storage.js';

/** A processed image whose renditions are stored, ready to be recorded in the media table. */
export interface NewMedia {
  id: string;
  purpose: MediaPurpose;
  alt: string | null;
  width: number;
  height: number;
  renditions: StoredRenditions;
}

/** A media id that is also safe inside a storage key. */
export function newMediaId(): string {
  return randomBytes(12).toString('base64url');
}

/** What one request stored: the media ids and keys to commit or discard together. */
export class UploadBatch {
  readonly mediaIds: string[] = [];
  readonly keys: string[] = [];

  clear(): void {
    this.mediaIds.length = 0;
    this.keys.length = 0;
  }
}

/**
 * Stores uploaded images so that no request, failed or killed at any point, leaves files that no record
 * points to, and no record points to a missing file (ADR 0009). Each upload is recorded as pending before
 * its first file is written; the change that references it commits its media row; what never commits is
 * deleted by the request itself or, if the process died, by a later sweep.
 */
export class MediaUploads {
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    readonly storage: MediaStorage,
    private readonly pending: PendingUploadsRepository,
    private readonly log: Logger,
  ) {}

  /**
   * Runs an upload through the image pipeline and stores its renditions, recording them in `batch` before
   * any is written. Throws ImageRejected for an unusable image.
   */
  async store(
    upload: { purpose: MediaPurpose; body: Buffer; alt: string | null; specs: RenditionSpec[] },
    batch: UploadBatch,
  ): Promise<NewMedia> {
    const processed = await processImage(upload.body, upload.specs);
    const id = newMediaId();
    const named = processed.renditions.map((rendition) => ({
      rendition,
      key: `${upload.purpose}s/${id}-${rendition.name}.webp`,
    }));
    await this.pending.record(
      id,
      named.map(({ key }) => key),
    );
    batch.mediaIds.push(id);
    const renditions: StoredRenditions = {};
    for (const { rendition, key } of named) {
      batch.keys.push(key);
      await this.storage.put(key, rendition.body, rendition.contentType);
      renditions[rendition.name] = { key, width: rendition.width, height: rendition.height };
    }
    return {
      id,
      purpose: upload.purpose,
      alt: upload.alt,
      width: processed.sourceWidth,
      height: processed.sourceHeight,
      renditions,
    };
  }

  /** The batch's media rows are committed: its files are referenced and no longer pending. */
  async committed(batch: UploadBatch): Promise<void> {
    const ids = [...batch.mediaIds];
    batch.clear();
    // A record left behind here is harmless: the sweep sees its media row and only forgets it.
    await this.pending.forget(ids).catch((error: unknown) => {
      this.log.warn({ err: error }, 'could not forget committed uploads');
    });
  }

  /** The change failed: deletes the batch's files, then their records; a sweep retries what fails. */
  async discard(batch: UploadBatch): Promise<void> {
    if (batch.mediaIds.length === 0) return;
    const ids = [...batch.mediaIds];
    const keys = [...batch.keys];
    batch.clear();
    if (await this.deleteFiles(keys)) {
      await this.pending.forget(ids).catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not forget discarded uploads');
      });
    }
  }

  /** Deletes files that a committed change no longer references (replaced or removed images). */
  async remove(keys: string[]): Promise<void> {
    await removeStoredFiles(this.storage, keys, this.log);
  }

  /**
   * Deletes the files of uploads recorded more than the grace period before `now` that never committed,
   * and forgets those that did. Returns how many uploads were deleted.
   */
  async sweep(now = Date.now()): Promise<number> {
    const before = new Date(now - orphanMedia.graceMs);
    let deleted = 0;
    for (;;) {
      const batch = await this.pending.recordedBefore(before, orphanMedia.sweepBatch);
      const done: string[] = [];
      for (const upload of batch) {
        if (upload.committed || (await this.deleteFiles(upload.keys))) done.push(upload.mediaId);
        if (!upload.committed) deleted += 1;
      }
      await this.pending.forget(done);
      // A short batch was the last; a batch whose files could not all be deleted waits for the next sweep.
      if (batch.length < orphanMedia.sweepBatch || done.length < batch.length) return deleted;
    }
  }

  /** Prepares the storage and sweeps now, then every few minutes until close(). */
  async start(): Promise<void> {
    await this.storage.prepare();
    await this.sweepLogged();
    this.#timer = setInterval(() => {
      this.#sweeping = this.sweepLogged();
    }, orphanMedia.sweepEveryMs);
    this.#timer.unref();
  }

  /** Stops the periodic sweep and waits for one under way. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  private async sweepLogged(): Promise<void> {
    try {
      const deleted = await this.sweep();
      if (deleted > 0)
        this.log.info({ deleted }, 'deleted the files of uploads that never committed');
    } catch (error) {
      // Storage or the database being unreachable delays the sweep; it never stops the server.
      this.log.warn({ err: error }, 'could not sweep uploads that never committed');
    }
  }

  /** True when every key was deleted (a missing file counts as deleted). */
  private async deleteFiles(keys: string[]): Promise<boolean> {
    const results = await Promise.all(
      keys.map((key) =>
        this.storage.delete(key).then(
          () => true,
          (error: unknown) => {
            this.log.warn({ err: error, key }, 'could not delete a stored file');
            return false;
          },
        ),
      ),
    );
    return results.every(Boolean);
  }
}

/** The storage keys of a media record's renditions. */
export function renditionKeys(renditions: StoredRenditions): string[] {
  return Object.values(renditions).map((rendition) => rendition.key);
}

/** Best effort: a file that cannot be deleted now is logged, never a failed request. */
export async function removeStoredFiles(
  storage: MediaStorage,
  keys: string[],
  log: Logger,
): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      storage.delete(key).catch((error: unknown) => {
        log.warn({ err: error, key }, 'could not delete a stored file');
      }),
    ),
  );
}

/** The error for an image that cannot be used, shown on its own form field. */
export function imageFieldError(field: string, error: ImageRejected): DomainError {
  const code =
    error.status === 415
      ? 'unsupported_media_type'
      : error.status === 413
        ? 'payload_too_large'
        : 'validation_failed';
  return new DomainError(error.status, code, error.message, { [field]: error.message });
}

export { ImageRejected };
