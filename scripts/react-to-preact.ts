/**
 * The web app runs on Preact's React compatibility layer instead of React DOM (issue 13: React DOM alone
 * is about 67 KB gzip of the feed's first load, preact/compat about 10 KB). Source files and libraries
 * keep importing `react` and `react-dom`; these aliases send every such import to preact/compat, in the
 * web build (vite.config.ts) and in the web unit tests (vitest.config.ts), so the tests run what ships.
 * TypeScript still checks against @types/react: the aliases are a bundler matter only.
 *
 * Each pattern matches the whole specifier, so `react-router` or `react-markdown` are left alone.
 */
export const reactToPreact = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * Libraries that import React. Vitest runs packages of node_modules natively, where aliases do not
 * apply, so these are inlined (run through Vite's resolver) in the web tests: otherwise they would load
 * the real React next to preact/compat and render nothing the app's components could use.
 */
export const reactLibraries = [
  /[\\/]node_modules[\\/]@testing-library[\\/]react[\\/]/,
  /[\\/]node_modules[\\/]react-router[\\/]/,
  /[\\/]node_modules[\\/]@tanstack[\\/]react-query[\\/]/,
  /[\\/]node_modules[\\/]react-hook-form[\\/]/,
  /[\\/]node_modules[\\/]@hookform[\\/]resolvers[\\/]/,
  /[\\/]node_modules[\\/]@radix-ui[\\/]/,
  // Radix's menus place themselves with it.
  /[\\/]node_modules[\\/]@floating-ui[\\/]/,
  /[\\/]node_modules[\\/]react-markdown[\\/]/,
];
