import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiTarget = process.env.HEARTH_DEV_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: here('./src/web'),
  publicDir: here('./src/web/public'),
  resolve: {
    alias: {
      '@shared': here('./src/shared'),
      '@web': here('./src/web'),
    },
  },
  plugins: [react()],
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    assetsDir: 'assets',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/media': { target: apiTarget },
    },
  },
});
