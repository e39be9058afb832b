import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensurePrivateDirAsync, privateModes } from '../private-files.js';
import { assertSafeKey } from './storage-keys.js';

/** Where uploaded media lives. Keys are server-generated (`avatars/<random>-400.webp`), never user input. */
export interface MediaStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Deletes what `key` holds, a half-written copy included; a missing key is no error. */
  delete(key: string): Promise<void>;
  /** Readies the store at start (local folders are made owner-only). */
  prepare(): Promise<void>;
  /** The public URL of a stored object. */
  url(key: string): string;
  /** Origin that serves media, when it is not this server (for the Content-Security-Policy). */
  readonly externalOrigin: string | null;
}

const partialOf = (file: string) => `${file}.partial`;

/** Files under DATA_DIR/media, served by this server at /media/… */
export class LocalStorage implements MediaStorage {
  readonly externalOrigin = null;
  constructor(readonly root: string) {}

  async put(key: string, body: Buffer): Promise<void> {
    assertSafeKey(key);
    const file = path.join(this.root, key);
    // Owner-only like the rest of DATA_DIR: this server reads the files and serves them itself.
    await mkdir(path.dirname(file), { recursive: true, mode: privateModes.dir });
    // Write then rename, so a reader never sees half a file. Keys are unique per upload, so one name per
    // key is enough, and delete() can find what a killed write left.
    await writeFile(partialOf(file), body, { mode: privateModes.file });
    await rename(partialOf(file), file);
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    const file = path.join(this.root, key);
    await rm(file, { force: true });
    await rm(partialOf(file), { force: true });
  }

  /** Creates the media folder owner-only and narrows the folders an earlier version left readable. */
  async prepare(): Promise<void> {
    await ensurePrivateDirAsync(this.root);
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (entry.isDirectory()) await chmod(path.join(this.root, entry.name), privateModes.dir);
    }
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
