// How the built web app is delivered (ADR 0024): zod configured before any schema exists, assets
// precompressed next to themselves, source maps moved out of what the server publishes, and the first
// load's loading screen painted from the page alone (ADR 0035).
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files the browser fetches as text; images and fonts in the build are compressed formats already. */
const compressible = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
]);
/** Below this the encoding's framing and a second request path are not worth the bytes saved. */
const minimumBytes = 1024;

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `file.br` and `file.gz` at maximum compression, each only when it is smaller than the file. */
async function precompress(file: string): Promise<number> {
  const original = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(original, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }),
    gzipAsync(original, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  let written = 0;
  for (const [suffix, body] of [
    ['.br', br],
    ['.gz', gz],
  ] as const) {
    if (body.length >= original.length) continue;
    await writeFile(`${file}${suffix}`, body);
    written += 1;
  }
  return written;
}

/**
 * Moves every source map under `outDir` into `sourcemapDir` (same relative paths), so operators keep them
 * for reading stack traces while the server, which publishes `outDir`, never has them.
 */
async function moveSourceMaps(outDir: string, sourcemapDir: string): Promise<number> {
  await rm(sourcemapDir, { recursive: true, force: true });
  const maps = (await filesUnder(outDir)).filter((file) => file.endsWith('.map'));
  for (const file of maps) {
    const target = path.join(sourcemapDir, path.relative(outDir, file));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
  }
  return maps.length;
}

/**
 * The loading screen's logo in index.html, written into the page itself (a data: address, which the CSP's
 * img-src allows): the first paint then needs the page and its stylesheet only, not a request that waits
 * behind the page's scripts and data on a phone's few connections. The app's own `<img>` takes the screen
 * over with the logo's address. Fails the build when the screen is not found exactly once, so the page
 * never quietly loses it.
 */
export function inlineLoadingLogo(html: string, logoPath: string, logo: Buffer): string {
  const screens = [...html.matchAll(/<img\b[^>]*\bclass="loading-screen__logo"[^>]*>/g)];
  const [screen] = screens;
  const source = `src="${logoPath}"`;
  if (screens.length !== 1 || !screen?.[0].includes(source)) {
    throw new Error(`index.html must hold one loading-screen logo with ${source}`);
  }
  const inlined = screen[0].replace(
    source,
    `src="data:image/png;base64,${logo.toString('base64')}"`,
  );
  return html.replace(screen[0], () => inlined);
}

export interface WebDeliveryOptions {
  /** The module that imports zod, configures it and re-exports it. */
  zodConfig: string;
  /** The loading screen's logo: its address in index.html and its file. */
  loadingLogo: { path: string; file: string };
}

/** The build's plugins; source maps go to `sourcemaps/` next to the output folder (dist/sourcemaps). */
export function webDelivery({ zodConfig, loadingLogo }: WebDeliveryOptions): Plugin[] {
  let outDir = '';
  return [
    {
      // Every `import … from 'zod'` of the app gets the configured module, so zod is jitless before
      // the first schema is built, whatever order the chunks run in. Otherwise a schema built first makes
      // zod probe `new Function`, which the CSP reports on every page. zod-config.ts itself imports the
      // `zod/v4` entry, which this does not touch. zod is not on the first load (ADR 0032): it arrives
      // with the first form or live topic that needs it, configured by this, in the build and in dev.
      name: 'hearth:zod-configured-first',
      enforce: 'pre',
      resolveId(source) {
        return source === 'zod' ? zodConfig : null;
      },
    },
    {
      name: 'hearth:loading-logo',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        async handler(html) {
          return inlineLoadingLogo(html, loadingLogo.path, await readFile(loadingLogo.file));
        },
      },
    },
    {
      name: 'hearth:delivery',
      apply: 'build',
      configResolved(config) {
        outDir = path.resolve(config.root, config.build.outDir);
      },
      // After every other plugin has written its files (the service worker is written at closeBundle).
      closeBundle: {
        order: 'post',
        sequential: true,
        async handler() {
          const sourcemapDir = path.join(path.dirname(outDir), 'sourcemaps');
          const maps = await moveSourceMaps(outDir, sourcemapDir);
          let written = 0;
          for (const file of await filesUnder(outDir)) {
            if (!compressible.has(path.extname(file))) continue;
            if ((await stat(file)).size <= minimumBytes) continue;
            written += await precompress(file);
          }
          this.info(
            `${written} precompressed files written; ${maps} source maps moved to ${path.relative(process.cwd(), sourcemapDir)}`,
          );
        },
      },
    },
  ];
}
