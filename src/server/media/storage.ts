import { mkdir, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
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

/** Storage keys are made by the server; anything else is a bug, never a path to write to. */
export function assertSafeKey(key: string): void {
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

/** The storage the configuration asks for; the S3 client is only loaded when it is used. */
export async function createStorage(options: {
  dataDir: string;
  s3: S3Settings | undefined;
}): Promise<MediaStorage> {
  if (!options.s3) return new LocalStorage(path.join(options.dataDir, 'media'));
  const { S3Storage } = await import('./s3-storage.js');
  return new S3Storage(options.s3);
}
