// `npm start`: builds what is missing or stale, then runs the server in this very process (so its PID is
// the server's and signals reach it directly).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsStale, root } from './build-state.mjs';

if (buildIsStale()) {
  console.log('Building Hearth (first start, or the sources changed)…');
  const result = spawnSync('node', [path.join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
}

await import(pathToFileURL(path.join(root, 'dist', 'server', 'main.js')).href);
