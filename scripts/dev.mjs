// `npm run dev`: the API server (restarting on change) and Vite's dev server with hot reload.
// Open http://localhost:5173; API and WebSocket calls are proxied to the server.
import { spawn } from 'node:child_process';
import { root } from './build-state.mjs';

const apiPort = process.env.PORT ?? '3000';
const children = [
  spawn('node', ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: apiPort,
      PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
    },
  }),
  spawn('npx', ['vite'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, HEARTH_DEV_API: `http://127.0.0.1:${apiPort}` },
  }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
