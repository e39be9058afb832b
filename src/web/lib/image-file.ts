import { limits } from '@shared/limits.js';

/** The image types the server's pipeline reads (issue: profiles, uploads). */
export const acceptedImageTypes = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const;

/** The file inputs' `accept` attribute. */
export const imageAccept = acceptedImageTypes.join(',');

const megabyte = 1024 * 1024;
const maxMegabytes = limits.upload.maxBytes / megabyte;
const maxMegapixels = limits.upload.maxPixels / 1_000_000;

/** The hint under an image input, from the shared limits. */
export const imageFileHint = `JPEG, PNG, WebP, GIF or AVIF, up to ${maxMegabytes} MB.`;

function formatMegabytes(bytes: number): string {
  return (bytes / megabyte).toLocaleString('en', { maximumFractionDigits: 1 });
}

/**
 * A friendly check before uploading (type and size), so nobody waits for a 10 MB upload to be told
 * no. The server reads the bytes and stays the judge; a type the browser could not name ('') is
 * left to it.
 */
export function checkImageFile(file: Pick<File, 'type' | 'size'>): string | null {
  if (file.type !== '' && !(acceptedImageTypes as readonly string[]).includes(file.type)) {
    return 'Choose a JPEG, PNG, WebP, GIF or AVIF image.';
  }
  if (file.size === 0) return 'This file is empty. Choose another image.';
  if (file.size > limits.upload.maxBytes) {
    return `This file is ${formatMegabytes(file.size)} MB; images can be at most ${maxMegabytes} MB.`;
  }
  return null;
}

/** The pixel limit, checked once the preview has been decoded. */
export function checkImagePixels(width: number, height: number): string | null {
  if (width * height <= limits.upload.maxPixels) return null;
  return `This image is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels; images can have at most ${maxMegapixels} megapixels.`;
}
