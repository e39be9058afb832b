/** Image files for tests, made in memory, and the multipart request that uploads them. */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { RequestOptions } from './harness.js';

const colour = { r: 200, g: 90, b: 40 };

/** A plain image of `width`×`height`, split into two colours so crops and orientation can be seen. */
function twoTone(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      const left = x < width / 2;
      pixels[offset] = left ? colour.r : 20;
      pixels[offset + 1] = left ? colour.g : 120;
      pixels[offset + 2] = left ? colour.b : 220;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A two-tone JPEG. */
export function jpeg(width = 640, height = 480): Promise<Buffer> {
  return twoTone(width, height).jpeg({ quality: 85 }).toBuffer();
}

/** A two-tone PNG. */
export function png(width = 640, height = 480): Promise<Buffer> {
  return twoTone(width, height).png().toBuffer();
}

/** A two-tone WebP. */
export function webp(width = 640, height = 480): Promise<Buffer> {
  return twoTone(width, height).webp().toBuffer();
}

/** A two-tone AVIF (fastest encoder effort: tests need the format, not the quality). */
export function avif(width = 320, height = 240): Promise<Buffer> {
  return twoTone(width, height).avif({ effort: 0 }).toBuffer();
}

/** A TIFF: an image format sharp decodes but Hearth does not accept. */
export function tiff(width = 64, height = 48): Promise<Buffer> {
  return twoTone(width, height).tiff().toBuffer();
}

/** An animated GIF of two frames (the pipeline keeps the first). */
export async function gif(width = 320, height = 240): Promise<Buffer> {
  const frame = await twoTone(width, height).raw().toBuffer();
  const frames = Buffer.concat([frame, Buffer.from(frame).reverse()]);
  return sharp(frames, { raw: { width, height: height * 2, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

/** Things a camera writes and a profile must never leak. */
export const cameraMake = 'Acme';
export const gpsLatitude = '51/1 30/1 0/1';

/** A JPEG carrying EXIF with a camera make and a GPS position. */
export function jpegWithGps(width = 640, height = 480): Promise<Buffer> {
  return twoTone(width, height)
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: cameraMake, Model: 'Snapper 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: gpsLatitude },
    })
    .toBuffer();
}

/**
 * A JPEG stored as `width`×`height` pixels with EXIF Orientation `orientation` (6 = rotate 90° clockwise
 * to display), as phones write them.
 */
export function jpegWithOrientation(width = 300, height = 200, orientation = 6): Promise<Buffer> {
  return twoTone(width, height).jpeg().withMetadata({ orientation }).toBuffer();
}

/** A JPEG of random pixels: incompressible, so its size follows its pixel count. */
export function noisyJpeg(
  width: number,
  height: number,
  options: { quality?: number; chromaSubsampling?: '4:2:0' | '4:4:4' } = {},
): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({
      quality: options.quality ?? 90,
      chromaSubsampling: options.chromaSubsampling ?? '4:2:0',
    })
    .toBuffer();
}

/** A real photo-sized JPEG of about 12 MB (2400×1800 noise at full quality), over the upload limit. */
export function noisyJpegOver10MB(): Promise<Buffer> {
  return noisyJpeg(2400, 1800, { quality: 100, chromaSubsampling: '4:4:4' });
}

/** A valid JPEG padded with junk after its end marker until it is `bytes` long. */
export async function paddedJpeg(bytes: number): Promise<Buffer> {
  const image = await jpeg(64, 64);
  return Buffer.concat([image, Buffer.alloc(Math.max(0, bytes - image.length), 0x5a)]);
}

/** The first `fraction` of a JPEG: its header reads, its pixels stop early. */
export async function truncatedJpeg(fraction = 0.5): Promise<Buffer> {
  const image = await noisyJpeg(256, 256);
  return image.subarray(0, Math.floor(image.length * fraction));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A "pixel flood": a few hundred bytes whose header claims `width`×`height` pixels (2.5 gigapixels by
 * default). Written by hand — decoding it would take gigabytes, so no encoder ever touches it.
 */
export function pngFlood(width = 50_000, height = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression
  header[11] = 0; // filter
  header[12] = 0; // no interlace
  // The first scanline only: enough to look like the start of a real image.
  const data = deflateSync(Buffer.alloc(1 + width * 3));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', data),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Files that are not images, whatever their name or declared type. */
export const notImages = {
  text: Buffer.from('Just some notes, not a picture.\n'),
  svg: Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
      '<script>alert(1)</script><rect width="10" height="10"/></svg>',
  ),
  html: Buffer.from(
    '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
  ),
};

/** A multipart form value: text, or a file with an optional name and declared type. */
export type FormValue = string | { bytes: Buffer; filename?: string; type?: string };

/**
 * Sends a multipart/form-data request the way a browser's form would (Origin header, cookie, client IP).
 * A field given an array is sent once per item, in order.
 */
export async function sendForm(
  app: FastifyInstance,
  method: 'POST' | 'PATCH' | 'PUT',
  url: string,
  fields: Record<string, FormValue | FormValue[]>,
  options: RequestOptions = {},
): Promise<LightMyRequestResponse> {
  // Loaded here, not at the top: the image factories stay usable without the app (bench, pipeline tests).
  const { testOrigin, uniqueIp } = await import('./harness.js');
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') {
        form.append(name, item);
      } else {
        const blob = new Blob([new Uint8Array(item.bytes)], {
          type: item.type ?? 'application/octet-stream',
        });
        form.append(name, blob, item.filename ?? `${name}.bin`);
      }
    }
  }
  const request = new Request('http://hearth.test/', { method, body: form });
  const headers: Record<string, string> = { ...options.headers };
  headers['content-type'] = request.headers.get('content-type') ?? '';
  if (options.origin !== null) headers.origin = options.origin ?? testOrigin;
  if (options.cookie) headers.cookie = options.cookie;
  return app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? uniqueIp(),
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
