import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { limits } from '../../shared/limits.js';

// libvips' cache is off and each image uses one thread; `exclusive` below makes it one image at a time.
sharp.concurrency(1);
sharp.cache(false);

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs decoding work one job at a time per process, so that concurrent uploads wait their turn instead
 * of each holding a decoded image in memory (ADR 0004).
 */
function exclusive<T>(job: () => Promise<T>): Promise<T> {
  const result = queue.then(job, job);
  queue = result.catch(() => undefined);
  return result;
}

/** The formats accepted, recognised from the bytes themselves — never from a name or a client header. */
const acceptedTypes = new Map([
  ['image/jpeg', 'JPEG'],
  ['image/png', 'PNG'],
  ['image/webp', 'WebP'],
  ['image/gif', 'GIF'],
  ['image/avif', 'AVIF'],
]);

export const acceptedFormatsText = 'JPEG, PNG, WebP, GIF or AVIF';

export class ImageRejected extends Error {
  override name = 'ImageRejected';
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message);
  }
}

export interface RenditionSpec {
  name: string;
  width: number;
  height: number;
  /** `cover` crops to exactly width×height around the centre; `inside` fits within, keeping the ratio. */
  fit: 'cover' | 'inside';
}

export interface Rendition {
  name: string;
  body: Buffer;
  width: number;
  height: number;
  contentType: 'image/webp';
}

export interface ProcessedImage {
  sourceType: string;
  sourceWidth: number;
  sourceHeight: number;
  renditions: Rendition[];
}

/**
 * Checks an upload and renders its WebP renditions: type from the bytes, size and pixel count checked from
 * the header before any decoding (so a "pixel flood" costs nothing), auto-orientation, and every piece of
 * metadata (EXIF, GPS, ICC comments) stripped.
 */
export async function processImage(input: Buffer, specs: RenditionSpec[]): Promise<ProcessedImage> {
  if (input.length === 0) throw new ImageRejected('The file is empty.');
  if (input.length > limits.upload.maxBytes) {
    throw new ImageRejected(
      `The file is larger than ${limits.upload.maxBytes / 1024 / 1024} MB.`,
      413,
    );
  }
  const detected = await fileTypeFromBuffer(input);
  if (!detected || !acceptedTypes.has(detected.mime)) {
    throw new ImageRejected(
      `This file is not an image Hearth accepts. Use ${acceptedFormatsText}.`,
      415,
    );
  }

  let width: number;
  let height: number;
  try {
    const header = await sharp(input, { limitInputPixels: false }).metadata();
    width = header.width;
    height = header.height;
  } catch {
    throw new ImageRejected('This image is damaged or incomplete and could not be read.');
  }
  if (width * height > limits.upload.maxPixels) {
    throw new ImageRejected(
      `This image is ${width} × ${height} pixels; the limit is ${limits.upload.maxPixels / 1_000_000} megapixels.`,
      413,
    );
  }

  try {
    const renditions = await exclusive(async () => {
      const rendered: Rendition[] = [];
      // One rendition after another: a single decoded copy of the source in memory at a time.
      for (const spec of specs) {
        const { data, info } = await sharp(input, {
          limitInputPixels: limits.upload.maxPixels,
          failOn: 'error',
          // Stream the source top to bottom instead of holding it whole: far less memory for large images.
          sequentialRead: true,
          // Animated GIF and WebP: the first frame.
          pages: 1,
        })
          .rotate()
          .resize({
            width: spec.width,
            height: spec.height,
            fit: spec.fit,
            position: 'centre',
            withoutEnlargement: spec.fit === 'inside',
          })
          .webp({ quality: 82, effort: 4 })
          .toBuffer({ resolveWithObject: true });
        rendered.push({
          name: spec.name,
          body: data,
          width: info.width,
          height: info.height,
          contentType: 'image/webp',
        });
      }
      return rendered;
    });
    return { sourceType: detected.mime, sourceWidth: width, sourceHeight: height, renditions };
  } catch {
    throw new ImageRejected('This image is damaged or incomplete and could not be read.');
  }
}
