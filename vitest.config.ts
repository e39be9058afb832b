import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reactLibraries, reactToPreact } from './scripts/react-to-preact.js';
import { webContract } from './scripts/web-contract.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The web tests call the API through the contract as the built app ships it (scripts/web-contract.ts).
  plugins: [
    webContract({
      endpointsDir: here('./src/shared/contract/endpoints'),
      webDir: here('./src/web'),
      checkModule: here('./src/web/lib/wire-check.ts'),
      topicsFile: here('./src/shared/contract/topics.ts'),
    }),
  ],
  resolve: {
    alias: [
      { find: '@shared', replacement: fileURLToPath(new URL('./src/shared', import.meta.url)) },
      { find: '@web', replacement: fileURLToPath(new URL('./src/web', import.meta.url)) },
      // The web tests run on preact/compat, as the built app does (scripts/react-to-preact.ts).
      ...reactToPreact,
      // Testing Library's main file is CommonJS, whose require() calls no alias reaches: its ES build is.
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
    ],
  },
  environments: {
    // The jsdom tests' environment. Vitest leaves out the `module` condition, so react-router would load
    // as CommonJS, whose require('react') no alias reaches; with it, its ES build is used, as in the app.
    client: { resolve: { conditions: ['module'] } },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['./src/web/test/setup-frames.ts'],
    // Aliases reach only inlined modules: the libraries that import React must go through Vite too.
    server: { deps: { inline: reactLibraries } },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Integration files each make their own databases; two at a time suits the 2-core machines.
    maxWorkers: 2,
  },
});
