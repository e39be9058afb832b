// Decides whether the build in dist/ is older than the sources it was made from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const stampFile = path.join(root, 'dist', '.build-stamp');

const inputs = [
  'src',
  'package-lock.json',
  'vite.config.ts',
  'scripts/vite-service-worker.ts',
  'scripts/vite-web-delivery.ts',
  'tsconfig.base.json',
  'tsconfig.server.json',
  'tsconfig.web.json',
];

function newestMtime(entry) {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const child of readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** True when dist/ is missing or any source is newer than the last build. */
export function buildIsStale() {
  const outputs = ['dist/web/index.html', 'dist/server/main.js'].map((file) =>
    path.join(root, file),
  );
  if (!existsSync(stampFile) || outputs.some((file) => !existsSync(file))) return true;
  const built = statSync(stampFile).mtimeMs;
  return inputs
    .map((input) => path.join(root, input))
    .filter((input) => existsSync(input))
    .some((input) => newestMtime(input) > built);
}
