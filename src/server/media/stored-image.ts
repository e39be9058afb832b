import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { MediaPurpose } from '../db/schema.js';
import { DomainError } from '../errors.js';
import { ImageRejected, processImage, type RenditionSpec } from './image-pipeline.js';
import type { StoredRenditions } from './renditions.js';
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

/**
 * Runs an upload through the image pipeline and stores its renditions. Each key is pushed onto `stored`
 * as soon as it is written, so the caller can delete them all if the change they belong to fails.
 * Throws ImageRejected for an unusable image.
 */
export async function storeImage(
  storage: MediaStorage,
  upload: { purpose: MediaPurpose; body: Buffer; alt: string | null; specs: RenditionSpec[] },
  stored: string[],
): Promise<NewMedia> {
  const processed = await processImage(upload.body, upload.specs);
  const id = newMediaId();
  const renditions: StoredRenditions = {};
  for (const rendition of processed.renditions) {
    const key = `${upload.purpose}s/${id}-${rendition.name}.webp`;
    stored.push(key);
    await storage.put(key, rendition.body, rendition.contentType);
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
