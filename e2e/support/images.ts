import sharp from 'sharp';

/** A file for Playwright's setInputFiles. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real PNG of one colour, made on the spot (no fixture files in the repository). */
export async function pngFile(name: string, width: number, height: number): Promise<UploadFile> {
  const buffer = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** A real JPEG with a gradient, so it is not trivially compressible. */
export async function jpegFile(name: string, width: number, height: number): Promise<UploadFile> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = 120;
    }
  }
  const buffer = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** Text that claims to be a PNG: the browser believes the name, the server reads the bytes. */
export function fakePngFile(name = 'notes.png'): UploadFile {
  return {
    name,
    mimeType: 'image/png',
    buffer: Buffer.from('These are my notes, not a picture.\n'),
  };
}
