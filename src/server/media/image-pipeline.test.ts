import type { Sharp } from 'sharp';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { limits } from '../../shared/limits.js';
import * as images from '../test/images.js';
import { ImageRejected, processImage, type RenditionSpec } from './image-pipeline.js';
import { profileRenditions } from './renditions.js';

/** The sharp methods called on each input buffer, to tell reading a header from decoding pixels. */
const traced = vi.hoisted(() => new WeakMap<Buffer, string[]>());

vi.mock('sharp', async (importOriginal) => {
  const real = (await importOriginal<typeof import('sharp')>()).default;
  function tracing(...args: unknown[]): Sharp {
    const instance = Reflect.apply(real, undefined, args) as Sharp;
    const input = args[0];
    if (!Buffer.isBuffer(input)) return instance;
    const calls = traced.get(input) ?? [];
    traced.set(input, calls);
    const proxy: Sharp = new Proxy(instance, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...methodArgs: unknown[]) => {
          calls.push(String(property));
          const result: unknown = Reflect.apply(value, target, methodArgs);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  }
  return { default: Object.assign(tracing, real) };
});

const avatarSpecs = profileRenditions.avatar;

/** processImage's rejection of `input`, or a failure when it was accepted. */
async function rejection(input: Buffer, specs: RenditionSpec[] = avatarSpecs) {
  const error: unknown = await processImage(input, specs).then(
    () => new Error('the image was accepted'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ImageRejected);
  return error as ImageRejected;
}

const decodingMethods = ['toBuffer', 'toFile', 'raw', 'pipe', 'stats'];

describe('processImage', () => {
  it.each([
    ['JPEG', 'image/jpeg', () => images.jpeg(640, 480), 640, 480],
    ['PNG', 'image/png', () => images.png(640, 480), 640, 480],
    ['WebP', 'image/webp', () => images.webp(640, 480), 640, 480],
    ['GIF', 'image/gif', () => images.gif(320, 240), 320, 240],
    ['AVIF', 'image/avif', () => images.avif(320, 240), 320, 240],
  ] as const)(
    'renders a %s as WebP avatars of exactly 400×400 and 96×96',
    async (_format, type, make, width, height) => {
      const result = await processImage(await make(), avatarSpecs);
      expect(result).toMatchObject({ sourceType: type, sourceWidth: width, sourceHeight: height });
      expect(
        result.renditions.map(({ name, width, height, contentType }) => ({
          name,
          width,
          height,
          contentType,
        })),
      ).toEqual([
        { name: 'avatar', width: 400, height: 400, contentType: 'image/webp' },
        { name: 'thumb', width: 96, height: 96, contentType: 'image/webp' },
      ]);
      for (const rendition of result.renditions) {
        const metadata = await sharp(rendition.body).metadata();
        expect(metadata).toMatchObject({
          format: 'webp',
          width: rendition.width,
          height: rendition.height,
        });
      }
    },
  );

  it.each([
    ['a wide photo', 2000, 1000],
    ['a small image (enlarged)', 100, 50],
    ['a tall image', 600, 1800],
  ])('renders %s as a cover of exactly 1500×500', async (_what, width, height) => {
    const [cover] = (await processImage(await images.jpeg(width, height), profileRenditions.cover))
      .renditions;
    expect(cover).toMatchObject({ name: 'cover', width: 1500, height: 500 });
    expect(await sharp(cover?.body).metadata()).toMatchObject({ width: 1500, height: 500 });
  });

  it('fits an `inside` rendition within its box, keeping the ratio and never enlarging', async () => {
    const box: RenditionSpec[] = [{ name: 'box', width: 1000, height: 1000, fit: 'inside' }];
    expect((await processImage(await images.jpeg(2000, 1000), box)).renditions[0]).toMatchObject({
      width: 1000,
      height: 500,
    });
    expect((await processImage(await images.jpeg(640, 480), box)).renditions[0]).toMatchObject({
      width: 640,
      height: 480,
    });
  });

  it('strips EXIF, GPS and every other piece of metadata', async () => {
    const photo = await images.jpegWithGps();
    const original = await sharp(photo).metadata();
    expect(original.exif?.includes(images.cameraMake)).toBe(true);

    const { renditions } = await processImage(photo, [
      ...avatarSpecs,
      { name: 'full', width: 1000, height: 1000, fit: 'inside' },
    ]);
    for (const rendition of renditions) {
      const metadata = await sharp(rendition.body).metadata();
      expect(metadata.exif, rendition.name).toBeUndefined();
      expect(metadata.xmp, rendition.name).toBeUndefined();
      expect(metadata.iptc, rendition.name).toBeUndefined();
      expect(metadata.icc, rendition.name).toBeUndefined();
      expect(metadata.orientation, rendition.name).toBeUndefined();
      expect(rendition.body.includes(images.cameraMake), rendition.name).toBe(false);
      expect(rendition.body.includes('Exif'), rendition.name).toBe(false);
    }
  });

  it('applies the EXIF orientation: a 300×200 photo marked "rotate 90°" comes out 200×300, upright', async () => {
    const photo = await images.jpegWithOrientation(300, 200, 6);
    expect(await sharp(photo).metadata()).toMatchObject({
      width: 300,
      height: 200,
      orientation: 6,
    });
    const [upright] = (
      await processImage(photo, [{ name: 'full', width: 1000, height: 1000, fit: 'inside' }])
    ).renditions;
    expect(upright).toMatchObject({ width: 200, height: 300 });

    // The photo's left half (orange) is its top once turned clockwise; the right half (blue) its bottom.
    const { data, info } = await sharp(upright?.body).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const offset = (y * info.width + x) * info.channels;
      return { r: data[offset] ?? 0, b: data[offset + 2] ?? 0 };
    };
    const top = pixel(100, 20);
    const bottom = pixel(100, 280);
    expect(top.r).toBeGreaterThan(top.b);
    expect(bottom.b).toBeGreaterThan(bottom.r);
  });

  it('keeps the first frame of an animated GIF, as a still image', async () => {
    const animation = await images.gif();
    expect((await sharp(animation).metadata()).pages).toBe(2);
    const [avatar] = (await processImage(animation, avatarSpecs)).renditions;
    expect((await sharp(avatar?.body).metadata()).pages ?? 1).toBe(1);
  });

  it.each([
    ['a text file', () => images.notImages.text],
    ['an SVG', () => images.notImages.svg],
    ['an HTML page', () => images.notImages.html],
    ['a TIFF (an image, but not an accepted format)', () => images.tiff()],
  ])('refuses %s as an unsupported type with 415', async (_what, make) => {
    const input = await make();
    const error = await rejection(input);
    expect(error.status).toBe(415);
    expect(error.message).toMatch(/JPEG, PNG, WebP, GIF or AVIF/);
    // Refused from its first bytes: no decoder is ever handed the file.
    expect(traced.get(input)).toBeUndefined();
  });

  it.each([
    ['an empty buffer', () => Buffer.alloc(0)],
    ['a JPEG cut in half', () => images.truncatedJpeg(0.5)],
    ['a JPEG missing its last tenth', () => images.truncatedJpeg(0.9)],
  ])('refuses %s as damaged with 400', async (_what, make) => {
    const error = await rejection(await make());
    expect(error.status).toBe(400);
  });

  it('refuses a 50,000×50,000 PNG with 413 from its header alone, decoding nothing', async () => {
    const flood = images.pngFlood(50_000, 50_000);
    expect(flood.length).toBeLessThan(1024);
    const error = await rejection(flood);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/50000 × 50000 pixels/);
    const calls = traced.get(flood) ?? [];
    expect(calls).toContain('metadata');
    expect(calls.filter((call) => decodingMethods.includes(call))).toEqual([]);
  });

  it(`refuses an image one row over ${limits.upload.maxPixels / 1_000_000} megapixels with 413`, async () => {
    const error = await rejection(images.pngFlood(8000, limits.upload.maxPixels / 8000 + 1));
    expect(error.status).toBe(413);
  });

  it('decodes an accepted image (so the trace above can tell the difference)', async () => {
    const input = await images.png(64, 64);
    await processImage(input, avatarSpecs);
    expect(traced.get(input)).toContain('toBuffer');
  });

  it(`refuses a file over ${limits.upload.maxBytes / 1024 / 1024} MB with 413 before reading it`, async () => {
    const input = await images.paddedJpeg(limits.upload.maxBytes + 1);
    const error = await rejection(input);
    expect(error.status).toBe(413);
    expect(traced.get(input)).toBeUndefined();
  });

  it(`accepts a file of exactly ${limits.upload.maxBytes / 1024 / 1024} MB`, async () => {
    const result = await processImage(await images.paddedJpeg(limits.upload.maxBytes), avatarSpecs);
    expect(result.sourceType).toBe('image/jpeg');
  });

  it('refuses a noisy photo over 10 MB made of real pixels', async () => {
    const photo = await images.noisyJpegOver10MB();
    expect(photo.length).toBeGreaterThan(limits.upload.maxBytes);
    expect((await rejection(photo)).status).toBe(413);
  });
});
