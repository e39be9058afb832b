#!/usr/bin/env node
/**
 * `npm run size [build folder]`: what the feed route costs a first visit, from the built web app.
 *
 * The feed's first paint needs the entry script, every chunk it imports statically (the same graph
 * index.html's modulepreload links announce), the feed page's own lazy chunk and that chunk's static
 * imports. Chunks loaded later, on demand, are listed but not counted. Sizes are gzip (level 9) and
 * brotli (quality 11), as the server sends them precompressed. Issue 13 sets the budget: 100 KB gzip.
 * When the build kept source maps, the first load is also broken down by package, to show what to move.
 *
 * A report, not a gate: it always exits 0, also when the budget is missed or nothing is built.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { staticImportsIn } from './static-imports.mjs';

const budgetBytes = 100 * 1024;
/** dist/web, or the build folder given as the first argument. */
const webDir = process.argv[2] ?? fileURLToPath(new URL('../dist/web/', import.meta.url));
const assetsDir = join(webDir, 'assets');
/** The feed page's module, as the router loads it (`() => import('./routes/feed-page.js')`). */
const feedChunkPattern = /^feed-page-[\w-]+\.js$/;

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function sizesOf(file) {
  const code = readFileSync(join(assetsDir, file));
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
      },
    }).length,
  };
}

function staticImportsOf(file) {
  return staticImportsIn(readFileSync(join(assetsDir, file), 'utf8')).map((name) => basename(name));
}

/** Every chunk reachable from `roots` through static imports, in discovery order. */
function staticGraph(roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file) || !existsSync(join(assetsDir, file))) continue;
    seen.add(file);
    queue.push(...staticImportsOf(file));
  }
  return [...seen];
}

const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one source map segment's base64 VLQ fields. */
function decodeSegment(segment) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = base64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** The source map of a chunk: beside it, or where the build keeps maps out of the public folder. */
function sourceMapOf(file) {
  const candidates = [
    join(assetsDir, `${file}.map`),
    join(webDir, '..', 'sourcemaps', 'assets', `${file}.map`),
  ];
  const path = candidates.find((candidate) => existsSync(candidate));
  return path ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/** `react-dom`, `@tanstack/query-core`, or `app` for the project's own code. */
function packageOf(source) {
  const at = source.lastIndexOf('node_modules/');
  if (at === -1) return 'app';
  const [scope, name] = source.slice(at + 'node_modules/'.length).split('/');
  return scope?.startsWith('@') ? `${scope}/${name ?? ''}` : (scope ?? 'app');
}

/**
 * Minified bytes per package across `files`, from their source maps: each mapped span of generated code
 * counts for the source it came from. Null when the build kept no maps.
 */
function bytesByPackage(files) {
  const totals = new Map();
  let mapped = false;
  for (const file of files) {
    const map = sourceMapOf(file);
    if (!map || typeof map.mappings !== 'string') continue;
    mapped = true;
    const lines = readFileSync(join(assetsDir, file), 'utf8').split('\n');
    let source = 0;
    map.mappings.split(';').forEach((line, index) => {
      const segments = line === '' ? [] : line.split(',').map(decodeSegment);
      let column = 0;
      const spans = segments.map((fields) => {
        column += fields[0] ?? 0;
        if (fields.length > 1) source += fields[1] ?? 0;
        return { column, source: fields.length > 1 ? source : -1 };
      });
      const lineLength = lines[index]?.length ?? 0;
      spans.forEach((span, at) => {
        const end = spans[at + 1]?.column ?? lineLength;
        const name = span.source >= 0 ? packageOf(map.sources[span.source] ?? '') : 'unmapped';
        totals.set(name, (totals.get(name) ?? 0) + Math.max(0, end - span.column));
      });
    });
  }
  return mapped ? [...totals].sort((a, b) => b[1] - a[1]) : null;
}

function main() {
  const indexHtml = join(webDir, 'index.html');
  if (!existsSync(indexHtml)) {
    console.log(`No build in ${webDir}: run "npm run build:web" first.`);
    return;
  }
  const html = readFileSync(indexHtml, 'utf8');
  const entries = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="\/assets\/([^"]+\.js)"/g),
  ].map((match) => match[1]);
  const preloads = [
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/assets\/([^"]+\.js)"/g),
  ].map((match) => match[1]);
  const jsFiles = readdirSync(assetsDir).filter((file) => file.endsWith('.js'));
  const feedChunk = jsFiles.find((file) => feedChunkPattern.test(file));

  const entryGraph = staticGraph([...entries, ...preloads]);
  const feedGraph = feedChunk
    ? staticGraph([feedChunk]).filter((file) => !entryGraph.includes(file))
    : [];
  const firstLoad = [...entryGraph, ...feedGraph];

  const rows = firstLoad.map((file) => ({
    file,
    part: entryGraph.includes(file)
      ? entries.includes(file)
        ? 'entry'
        : 'entry import'
      : 'feed route',
    ...sizesOf(file),
  }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const width = Math.max(...rows.map((row) => row.file.length), 10);
  console.log(
    `${'chunk'.padEnd(width)}  ${'part'.padEnd(12)}  ${'raw'.padStart(9)}  ${'gzip'.padStart(9)}  ${'brotli'.padStart(9)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.file.padEnd(width)}  ${row.part.padEnd(12)}  ${kb(row.raw).padStart(9)}  ${kb(row.gzip).padStart(9)}  ${kb(row.brotli).padStart(9)}`,
    );
  }
  const total = rows.reduce(
    (sum, row) => ({
      raw: sum.raw + row.raw,
      gzip: sum.gzip + row.gzip,
      brotli: sum.brotli + row.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
  console.log(
    `${'feed route first load'.padEnd(width)}  ${String(rows.length).padEnd(12)}  ${kb(total.raw).padStart(9)}  ${kb(total.gzip).padStart(9)}  ${kb(total.brotli).padStart(9)}`,
  );
  if (!feedChunk)
    console.log('The feed page chunk (feed-page-*.js) was not found; only the entry is counted.');
  const verdict = total.gzip <= budgetBytes ? 'within' : 'over';
  console.log(
    `Budget: ${kb(total.gzip)} gzip of ${kb(budgetBytes)}, ${verdict} by ${kb(Math.abs(budgetBytes - total.gzip))}.`,
  );
  const byPackage = bytesByPackage(firstLoad);
  if (byPackage) {
    console.log('\nWhat the first load is made of (minified bytes, from the source maps):');
    for (const [name, bytes] of byPackage) {
      console.log(`  ${name.padEnd(28)} ${kb(bytes).padStart(9)}`);
    }
  }
  const later = jsFiles.filter((file) => !firstLoad.includes(file));
  const laterGzip = later.reduce((sum, file) => sum + sizesOf(file).gzip, 0);
  console.log(`Loaded on demand later: ${later.length} chunks, ${kb(laterGzip)} gzip.`);
}

try {
  main();
} catch (error) {
  console.log(
    `Could not read the build: ${error instanceof Error ? error.message : String(error)}`,
  );
}
