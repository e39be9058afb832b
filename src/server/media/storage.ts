import { mkdir, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';

/** Where uploaded media lives. Keys are server-generated (`avatars/<random>-400.webp`), never user input. */
export interface MediaStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** The public URL of a stored object. */
  url(key: string): string;
  /** Origin that serves media, when it is not this server (for the Content-Security-Policy). */
  readonly externalOrigin: string | null;
}

const safeKey = /^[a-z]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/;

function assertSafeKey(key: string): void {
  if (!safeKey.test(key)) throw new Error(`refusing to store under an unsafe key: ${key}`);
}

/** Files under DATA_DIR/media, served by this server at /media/… */
export class LocalStorage implements MediaStorage {
  readonly externalOrigin = null;
  constructor(readonly root: string) {}

  async put(key: string, body: Buffer): Promise<void> {
    assertSafeKey(key);
    const file = path.join(this.root, key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const partial = `${file}.${randomUUID()}.partial`;
    await writeFile(partial, body, { mode: 0o644 });
    await rename(partial, file);
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await rm(path.join(this.root, key), { force: true });
  }

  url(key: string): string {
    return `/media/${key}`;
  }
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  publicUrl: string;
  forcePathStyle: boolean;
}

/** Any S3-compatible store (AWS, MinIO, Garage, R2…); objects are public-read through `publicUrl`. */
export class S3Storage implements MediaStorage {
  readonly externalOrigin: string;
  readonly #client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.externalOrigin = new URL(settings.publicUrl).origin;
    this.#client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
            },
          }
        : {}),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  url(key: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}/${key}`;
  }

  close(): void {
    this.#client.destroy();
  }
}

/** The storage the configuration asks for. */
export function createStorage(options: {
  dataDir: string;
  s3: S3Settings | undefined;
}): MediaStorage {
  return options.s3
    ? new S3Storage(options.s3)
    : new LocalStorage(path.join(options.dataDir, 'media'));
}
