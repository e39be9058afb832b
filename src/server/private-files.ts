import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/**
 * Permission bits of everything Hearth keeps in DATA_DIR: the database, the secret, media and mail are
 * the owner's alone. Modes are given explicitly at creation, never left to the umask.
 */
export const privateModes = { dir: 0o700, file: 0o600 } as const;

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && error.code === 'ENOENT';

/** Creates `dir` (and missing parents) owner-only, and narrows it if it already existed. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: privateModes.dir });
  chmodSync(dir, privateModes.dir);
}

/** The same as ensurePrivateDir, without blocking the event loop. */
export async function ensurePrivateDirAsync(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: privateModes.dir });
  await chmod(dir, privateModes.dir);
}

/** Narrows an existing file or folder to `mode`; one that does not exist is left so. */
export function restrictIfPresent(file: string, mode: number): void {
  try {
    chmodSync(file, mode);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
