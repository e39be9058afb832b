import { fileURLToPath } from 'node:url';
import { preact } from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';
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

/**
 * The modules something imports lazily (the route pages, the composer, the menus…): each must stay the
 * facade of a chunk of its own, which the router and the route preloads name. Filled once the module graph
 * is complete, before the chunks are drawn.
 */
const lazyModules = new Set<string>();
const lazyModuleList: Plugin = {
  name: 'hearth-lazy-modules',
  apply: 'build',
  buildEnd() {
    for (const id of this.getModuleIds()) {
      if ((this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0) lazyModules.add(id);
    }
  },
};

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
    lazyModuleList,
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
          groups: [
            { name: 'initial', tags: ['$initial'], priority: 1 },
            // The modules the lazy chunks share, one chunk per set of chunks that load them (as Rolldown
            // splits by default), except that a set whose modules come to less than 2 KB of source joins
            // its nearest neighbour. Over HTTP/1.1 each request of a page's first load waits its turn
            // on one of six connections, a round trip each: a page that loads a few hundred bytes more
            // in 14 files starts sooner than one that loads exactly what it needs in 27 (ADR 0037).
            {
              name: 'shared',
              test: (id: string) => !lazyModules.has(id),
              entriesAware: true,
              entriesAwareMergeThreshold: 2048,
            },
          ],
        },
        // A shared chunk's name lists the chunks that load it; the file is named by its hash alone.
        chunkFileNames: (chunk) =>
          chunk.name.startsWith('shared~') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js',
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
