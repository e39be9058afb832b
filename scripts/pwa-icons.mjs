// Draws the installable app's icons from src/web/public/favicon.svg (run by hand when the logo changes;
// the PNGs are committed so a build needs no image work): `node scripts/pwa-icons.mjs`.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const publicDir = path.join(root, 'src', 'web', 'public');
const outDir = path.join(publicDir, 'icons');
const logo = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');

/**
 * The maskable variant: launchers crop icons to circles or squircles that keep only the middle 80 %,
 * so the tile fills the whole square (no rounded corners to be cut into) and the flame shrinks into
 * the safe zone.
 */
function maskable(svg) {
  const defs = /<defs>[\s\S]*<\/defs>/.exec(svg)?.[0];
  const artwork = svg
    .replace(/<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/<defs>[\s\S]*<\/defs>/, '')
    .replace(/<rect width="64" height="64"[^>]*\/>/, '');
  if (!defs || artwork === svg) throw new Error('favicon.svg no longer has the expected shape.');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">${defs}
<rect width="64" height="64" fill="url(#tile)"/>
<g transform="translate(32 32) scale(0.72) translate(-32 -32)">${artwork}</g></svg>`;
}

async function draw(svg, size, file) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toFile(path.join(outDir, file));
}

mkdirSync(outDir, { recursive: true });
const fullBleed = maskable(logo);
await draw(logo, 192, 'icon-192.png');
await draw(logo, 512, 'icon-512.png');
await draw(fullBleed, 512, 'maskable-512.png');
// iOS rounds the corners itself and shows transparency as black: the full-bleed tile suits it.
await draw(fullBleed, 180, 'apple-touch-icon.png');
console.log(`Icons written to ${path.relative(root, outDir)}.`);
