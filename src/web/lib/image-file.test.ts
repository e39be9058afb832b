import { describe, expect, it } from 'vitest';
import { limits } from '@shared/limits.js';
import { checkImageFile, checkImagePixels, imageAccept } from './image-file.js';

describe('checkImageFile', () => {
  it('accepts the image types the server reads, within the size limit', () => {
    for (const type of imageAccept.split(',')) {
      expect(checkImageFile({ type, size: 1024 })).toBeNull();
    }
  });

  it('refuses another type with a sentence that names the allowed ones', () => {
    expect(checkImageFile({ type: 'text/plain', size: 10 })).toMatch(
      /JPEG, PNG, WebP, GIF or AVIF/,
    );
    expect(checkImageFile({ type: 'image/svg+xml', size: 10 })).not.toBeNull();
  });

  it('leaves a type the browser could not name to the server', () => {
    expect(checkImageFile({ type: '', size: 10 })).toBeNull();
  });

  it('refuses an empty file and one over the upload limit, saying the sizes', () => {
    expect(checkImageFile({ type: 'image/png', size: 0 })).toMatch(/empty/);
    expect(checkImageFile({ type: 'image/png', size: limits.upload.maxBytes })).toBeNull();
    expect(checkImageFile({ type: 'image/png', size: 12.5 * 1024 * 1024 })).toBe(
      'This file is 12.5 MB; images can be at most 10 MB.',
    );
  });
});

describe('checkImagePixels', () => {
  it('allows up to the pixel limit', () => {
    expect(checkImagePixels(8000, 5000)).toBeNull();
  });

  it('refuses more, with the dimensions', () => {
    expect(checkImagePixels(8000, 5001)).toBe(
      'This image is 8,000 × 5,001 pixels; images can have at most 40 megapixels.',
    );
  });
});
