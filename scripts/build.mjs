// `npm run build`: the web app (Vite → dist/web) and the server (tsc → dist/server), then a stamp so that
// `npm start` knows the build matches the sources.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, stampFile } from './build-state.mjs';

for (const script of ['build:web', 'build:server']) {
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
mkdirSync(path.dirname(stampFile), { recursive: true });
writeFileSync(stampFile, `${new Date().toISOString()}\n`);
