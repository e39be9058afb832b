// Renders Hearth's default images (spec §3) and logo from SVG into src/web/public.
// Run once after changing a design: node src/web/scripts/make-images.mjs
// The PNGs are committed, so neither builds nor servers need sharp for them.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));

/** The flame mark: two nested flames over a glowing hearth stone, on a rounded ember tile. */
function logoSvg(size) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="${size}" height="${size}">
  <defs>
    <linearGradient id="tile" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#c2410c"/>
      <stop offset="1" stop-color="#7c2d12"/>
    </linearGradient>
    <linearGradient id="outer" x1="0" y1="1" x2="0" y2="0">
      <stop offset="0" stop-color="#fbbf24"/>
      <stop offset="1" stop-color="#fde68a"/>
    </linearGradient>
    <linearGradient id="inner" x1="0" y1="1" x2="0" y2="0">
      <stop offset="0" stop-color="#fff7ed"/>
      <stop offset="1" stop-color="#fed7aa"/>
    </linearGradient>
  </defs>
  <rect width="64" height="64" rx="15" fill="url(#tile)"/>
  <path d="M32 9c3 8 13 13 13 26a13 13 0 0 1-26 0c0-7 4-11 7-15 1 5 3 8 6 8-3-7-2-13 0-19Z" fill="url(#outer)"/>
  <path d="M32 28c2 4 6 7 6 12a6 6 0 0 1-12 0c0-3 2-5 3-7 1 2 2 3 3 3-1-3 0-6 0-8Z" fill="url(#inner)"/>
  <rect x="14" y="50" width="36" height="4" rx="2" fill="#fed7aa" opacity="0.85"/>
</svg>`;
}

/** A neutral head-and-shoulders silhouette on a warm sand background. */
function avatarSvg({ simple }) {
  const background = simple
    ? '<rect width="256" height="256" fill="#ecd5c0"/>'
    : `<defs>
    <radialGradient id="bg" cx="0.5" cy="0.35" r="0.8">
      <stop offset="0" stop-color="#f6e3d1"/>
      <stop offset="1" stop-color="#e2c2a6"/>
    </radialGradient>
  </defs>
  <rect width="256" height="256" fill="url(#bg)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">
  ${background}
  <circle cx="128" cy="104" r="46" fill="#a9775a"/>
  <path d="M40 256c4-56 42-90 88-90s84 34 88 90Z" fill="#a9775a"/>
</svg>`;
}

/** A wide ember glow: dark hearth at the edges, warm light rising from below, a few sparks. */
function coverSvg() {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const sparks = Array.from({ length: 46 }, () => {
    const x = Math.round(random() * 1500);
    const y = Math.round(120 + random() * 360);
    const r = (1 + random() * 3).toFixed(1);
    const opacity = (0.35 + random() * 0.55).toFixed(2);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fde68a" opacity="${opacity}"/>`;
  }).join('\n    ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1500 500" width="1500" height="500">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2a130b"/>
      <stop offset="0.55" stop-color="#6b2410"/>
      <stop offset="1" stop-color="#b4430f"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="1" r="0.75">
      <stop offset="0" stop-color="#fbbf24" stop-opacity="0.95"/>
      <stop offset="0.45" stop-color="#f97316" stop-opacity="0.55"/>
      <stop offset="1" stop-color="#7c2d12" stop-opacity="0"/>
    </radialGradient>
    <filter id="soft" x="-20%" y="-20%" width="140%" height="140%">
      <feGaussianBlur stdDeviation="38"/>
    </filter>
    <filter id="spark">
      <feGaussianBlur stdDeviation="1.2"/>
    </filter>
  </defs>
  <rect width="1500" height="500" fill="url(#sky)"/>
  <rect width="1500" height="500" fill="url(#glow)"/>
  <g filter="url(#soft)" opacity="0.8">
    <ellipse cx="300" cy="470" rx="260" ry="120" fill="#f97316"/>
    <ellipse cx="760" cy="500" rx="360" ry="150" fill="#fbbf24"/>
    <ellipse cx="1230" cy="470" rx="280" ry="120" fill="#ea580c"/>
  </g>
  <g filter="url(#spark)">
    ${sparks}
  </g>
</svg>`;
}

async function render(svg, path, width, height) {
  const target = join(publicDir, path);
  await mkdir(dirname(target), { recursive: true });
  await sharp(Buffer.from(svg), { density: 144 })
    .resize(width, height)
    // A 256-colour palette with dithering keeps the large gradient small without visible bands.
    .png({ compressionLevel: 9, palette: true, quality: 95, dither: 1, effort: 10 })
    .toFile(target);
  process.stdout.write(`wrote ${path} (${width}×${height})\n`);
}

await render(avatarSvg({ simple: false }), 'img/default-avatar.png', 256, 256);
await render(avatarSvg({ simple: true }), 'default-avatar.png', 256, 256);
await render(coverSvg(), 'img/default-cover-image.png', 1500, 500);
await render(logoSvg(64), 'img/logo-small.png', 64, 64);
await render(logoSvg(64), 'favicon.png', 64, 64);
await writeFile(join(publicDir, 'favicon.svg'), `${logoSvg(64)}\n`);
process.stdout.write('wrote favicon.svg\n');
