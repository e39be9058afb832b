import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const featuresDir = 'src/web/features';
const routesDir = 'src/web/app/routes';
const features = readdirSync(path.join(root, featuresDir), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const routeTests = readdirSync(path.join(root, routesDir)).filter((name) =>
  /\.test\.tsx?$/.test(name),
);

const kyselyMessage =
  'Only repositories (src/server/**/*.repository.ts), src/server/db and src/server/auth touch Kysely.';
const routeMessage =
  'Route pages do not import one another: move what they share to src/web/app/layout, a feature or src/web/lib.';
const featureMessage =
  'Features do not import one another: share through src/web/lib, src/web/components or src/shared, or compose in src/web/app.';

/** Import boundaries (README.md, "Import boundaries"), checked on resolved paths so relative imports count too. */
const boundaryZones = [
  ...features.map((feature) => ({
    target: `${featuresDir}/${feature}`,
    from: featuresDir,
    except: [`./${feature}`],
    message: featureMessage,
  })),
  { target: featuresDir, from: 'src/web/app', message: 'Features do not import the app shell.' },
  { target: `${routesDir}/!(*.test).{ts,tsx}`, from: routesDir, message: routeMessage },
  // A page's test may import its own page, and nothing else of the routes folder.
  ...routeTests.map((test) => {
    const page = test.replace(/\.test\.tsx?$/, '');
    return {
      target: `${routesDir}/${test}`,
      from: routesDir,
      except: [`./${page}.tsx`, `./${page}.ts`],
      message: routeMessage,
    };
  }),
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', '.ci/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // NodeNext and Vite imports name the emitted `.js`; the web's @shared/* and @web/* aliases come
      // from tsconfig.web.json (the server uses none, so one resolver serves both).
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          tsconfig: { configFile: path.join(root, 'tsconfig.web.json') },
        }),
      ],
    },
    rules: {
      // A lazy import() closes a cycle as surely as a static one: the chunk still needs the module.
      'import-x/no-cycle': [
        'error',
        { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false },
      ],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/**'], message: 'The web app imports only shared code.' }],
        },
      ],
    },
  },
  {
    // Kysely stays behind the repositories (DESIGN.md "Layout"); Better Auth's adapter needs it too.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['src/server/**/*.repository.ts', 'src/server/db/**', 'src/server/auth/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: kyselyMessage }],
          patterns: [{ group: ['kysely/*'], message: kyselyMessage }],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/**'], message: 'The server does not import web code.' }] },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '.ci/**', '*.js', '*.mjs', 'bench/**', 'src/server/cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
