/**
 * Wall time and peak memory of the upload pipeline (ADR 0004) for a 12-megapixel noisy JPEG and for a
 * pixel-flood PNG, each through `processImage` with the avatar renditions.
 *
 *   node --import tsx bench/image-pipeline.ts
 *
 * Each case runs in a fresh child process, so one case's memory cannot hide another's: the child loads the
 * file, warms sharp up on a tiny image, resets the kernel's RSS high-water mark (Linux: /proc/self/clear_refs)
 * and notes its RSS, then runs the case and reads the high-water mark (VmHWM). getrusage's maxrss is no use
 * here: Linux carries it over from the parent across fork and exec. Elsewhere RSS is sampled every
 * millisecond instead, which can miss short peaks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { limits } from '../src/shared/limits.js';
import { processImage } from '../src/server/media/image-pipeline.js';
import { profileRenditions } from '../src/server/media/renditions.js';
import { noisyJpeg, png, pngFlood } from '../src/server/test/images.js';

interface Measurement {
  outcome: string;
  coldMs: number;
  warmMedianMs: number;
  runs: number;
  rssBeforeMiB: number;
  peakMiB: number;
  peakSource: string;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The kernel's peak RSS of this process since the last reset, or null off Linux. */
function highWaterMark(): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function measure(file: string, runs: number): Promise<Measurement> {
  const input = readFileSync(file);
  await processImage(await png(64, 64), profileRenditions.avatar);
  const kernelPeak = resetHighWaterMark();
  const rssBefore = process.memoryUsage.rss();
  let sampledPeak = rssBefore;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, 1);

  const times: number[] = [];
  let outcome = '';
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    try {
      const result = await processImage(input, profileRenditions.avatar);
      outcome = `accepted: ${result.renditions.map((r) => `${r.name} ${r.width}×${r.height}`).join(', ')}`;
    } catch (error) {
      const status = (error as { status?: number }).status ?? 'error';
      outcome = `rejected ${status}: ${(error as Error).message}`;
    }
    times.push(performance.now() - started);
  }
  clearInterval(sampler);
  const peak = (kernelPeak ? highWaterMark() : null) ?? sampledPeak;
  const [coldMs = 0, ...warm] = times;
  const sorted = [...warm].sort((a, b) => a - b);
  return {
    outcome,
    coldMs,
    warmMedianMs: sorted[Math.floor(sorted.length / 2)] ?? coldMs,
    runs,
    rssBeforeMiB: mib(rssBefore),
    peakMiB: mib(Math.max(peak, sampledPeak)),
    peakSource: kernelPeak ? 'kernel high-water mark' : 'sampled every 1 ms',
  };
}

async function main() {
  const [mode, file, runs] = process.argv.slice(2);
  if (mode === '--measure' && file) {
    process.stdout.write(JSON.stringify(await measure(file, Number(runs ?? 5))));
    return;
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-bench-'));
  try {
    const photo = await noisyJpeg(4000, 3000, { quality: 90 });
    const flood = pngFlood(50_000, 50_000);
    // For context: the largest image the limits let through, a flat PNG that must be decoded in full.
    const largest = await png(8000, limits.upload.maxPixels / 8000);
    const cases = [
      {
        name: '12 MP noisy JPEG (4000×3000)',
        file: path.join(dir, 'noisy.jpg'),
        bytes: photo,
        runs: 6,
      },
      {
        name: 'pixel-flood PNG (50000×50000)',
        file: path.join(dir, 'flood.png'),
        bytes: flood,
        runs: 21,
      },
      {
        name: '40 MP flat PNG (8000×5000, at the limit)',
        file: path.join(dir, 'largest.png'),
        bytes: largest,
        runs: 4,
      },
    ];
    const self = fileURLToPath(import.meta.url);
    console.log(
      `node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ` +
        `avatar renditions ${profileRenditions.avatar.map((s) => `${s.width}×${s.height}`).join(' + ')}`,
    );
    for (const entry of cases) {
      writeFileSync(entry.file, entry.bytes);
      const output = execFileSync(
        process.execPath,
        ['--import', 'tsx', self, '--measure', entry.file, String(entry.runs)],
        { encoding: 'utf8' },
      );
      const m = JSON.parse(output) as Measurement;
      const growth = Math.max(0, m.peakMiB - m.rssBeforeMiB);
      const size =
        entry.bytes.length < 1024 * 1024
          ? `${entry.bytes.length} bytes`
          : `${(entry.bytes.length / 1024 / 1024).toFixed(2)} MiB`;
      console.log(`\n${entry.name}, ${size} on the wire`);
      console.log(`  outcome:          ${m.outcome}`);
      console.log(
        `  wall time:        first ${m.coldMs.toFixed(1)} ms, median of next ${m.runs - 1}: ${m.warmMedianMs.toFixed(1)} ms`,
      );
      console.log(
        `  RSS:              ${m.rssBeforeMiB} MiB before, peak ${m.peakMiB} MiB during (${m.peakSource})`,
      );
      console.log(`  peak RSS growth:  ${growth.toFixed(1)} MiB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
