import { fileURLToPath } from 'node:url';
import { preact } from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { defaultImages } from './src/shared/paths.js';
import { reactToPreact } from './scripts/react-to-preact.js';
import { routePreloads } from './scripts/vite-route-preloads.js';
import { serviceWorker } from './scripts/vite-service-worker.js';
import { webContract } from './scripts/web-contract.js';
import { webDelivery } from './scripts/vite-web-delivery.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiTarget = process.env.HEARTH_DEV_API ?? 'http://127.0.0.1:3000';

/**
 * React Router's package exports only its development build, which keeps its warnings (and their text) in
 * the bundle. Its production build differs by that flag alone; the app's build uses it.
 */
const reactRouterProduction = [
  {
    find: /^react-router$/,
    replacement: here('./node_modules/react-router/dist/production/index.mjs'),
  },
  {
    find: /^react-router\/dom$/,
    replacement: here('./node_modules/react-router/dist/production/dom-export.mjs'),
  },
];

export default defineConfig(({ command }) => ({
  root: here('./src/web'),
  publicDir: here('./src/web/public'),
  resolve: {
    alias: [
      { find: '@shared', replacement: here('./src/shared') },
      { find: '@web', replacement: here('./src/web') },
      // React's API from preact/compat (scripts/react-to-preact.ts).
      ...reactToPreact,
      ...(command === 'build' ? reactRouterProduction : []),
    ],
  },
  plugins: [
    // JSX through preact/compat's runtime and Preact's fast refresh in development; the aliases above
    // already send React's modules to preact/compat.
    preact({ reactAliasesEnabled: false, jsxImportSource: 'preact/compat' }),
    // The contract's endpoints as the web app ships them: no zod (scripts/web-contract.ts, ADR 0032).
    webContract({
      endpointsDir: here('./src/shared/contract/endpoints'),
      webDir: here('./src/web'),
      checkModule: here('./src/web/lib/wire-check.ts'),
      topicsFile: here('./src/shared/contract/topics.ts'),
    }),
    serviceWorker(),
    // The pages the server announces scripts for in their head (ADR 0034).
    routePreloads(here('.'), {
      feed: 'src/web/app/routes/feed-page.tsx',
      post: 'src/web/app/routes/post-page.tsx',
      profile: 'src/web/app/routes/profile-page.tsx',
    }),
    ...webDelivery({
      zodConfig: here('./src/web/lib/zod-config.ts'),
      loadingLogo: { path: defaultImages.logo, file: here('./src/web/public/img/logo-small.png') },
    }),
  ],
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    // Maps are written without a reference in the code and moved out of dist/web (ADR 0024).
    sourcemap: 'hidden',
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The contract's generated modules are one per endpoint and shape (scripts/web-contract.ts), so a
          // page's chunk holds only what it calls; those the first paint needs go in one chunk rather than
          // dozens of tiny ones, each with its own request and compression overhead.
          groups: [{ name: 'initial', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/media': { target: apiTarget },
    },
  },
}));
