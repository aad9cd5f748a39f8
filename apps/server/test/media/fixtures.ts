import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A picture with detail in it (so it does not compress to nothing), different for every seed. */
export function noise(width: number, height: number, seed = 1): sharp.Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 1) {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    pixels[i] = state & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A camera photo: JPEG carrying EXIF with the place it was taken. */
export function jpegWithGps(width = 640, height = 480, seed = 1): Promise<Buffer> {
  return noise(width, height, seed)
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'Perch Test Camera', Model: 'T-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2416/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4026/100',
      },
    })
    .toBuffer();
}

/** A photo taken with the camera turned: stored landscape, EXIF orientation 6 (turn 90° right). */
export function rotatedJpeg(width = 600, height = 400): Promise<Buffer> {
  return noise(width, height, 7).jpeg().withMetadata({ orientation: 6 }).toBuffer();
}

export function png(width: number, height: number, seed = 3): Promise<Buffer> {
  return noise(width, height, seed).png().toBuffer();
}

export function webp(width: number, height: number, seed = 5): Promise<Buffer> {
  return noise(width, height, seed).webp().toBuffer();
}

export function transparentPng(width = 120, height = 80): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
}

/** An animated GIF of plain-coloured frames, 100 ms to 300 ms each. */
export async function animatedGif(frames = 3, width = 120, height = 90): Promise<Buffer> {
  const images = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({
        create: { width, height, channels: 3, background: { r: (i * 80) % 256, g: 120, b: 40 } },
      })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(images, { join: { animated: true } })
    .gif({ loop: 0, delay: images.map((_, i) => 100 * (i + 1)) })
    .toBuffer();
}

/** 7000 × 7000 = 49 megapixels, but blank, so only a few hundred kilobytes. */
export function hugeBlankPng(side = 7000): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/**
 * A GIF made by hand whose screen is width × height but whose frames are single pixels: tiny in
 * bytes, huge in what it claims.
 */
export function sparseGif(width: number, height: number, frames: number): Buffer {
  const le16 = (n: number) => [n & 0xff, n >> 8];
  const parts = [
    Buffer.from('GIF89a'),
    // Screen size, a global table of two colours (black, white).
    Buffer.from([...le16(width), ...le16(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255]),
    // Loop for ever.
    Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 0x03, 0x01, 0, 0, 0]),
  ];
  for (let i = 0; i < frames; i += 1) {
    parts.push(
      // 100 ms, then a 1 × 1 image at the top left whose one pixel is colour 0.
      Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]),
      Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]),
    );
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A PNG that claims width × height but holds almost no pixel data: only its header is sound. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header claims width × height, with no image data after it. */
export function jpegHeaderOnly(width: number, height: number): Buffer {
  const be16 = (n: number) => [n >> 8, n & 0xff];
  return Buffer.from([
    ...[0xff, 0xd8], // start of image
    ...[0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0], // JFIF
    ...[0xff, 0xc0, 0x00, 0x11, 8, ...be16(height), ...be16(width), 3], // baseline frame
    ...[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], // three components
    ...[0xff, 0xd9], // end of image
  ]);
}

/** A WebP whose extended header (VP8X) claims a width × height canvas, and nothing more. */
export function webpHeaderOnly(width: number, height: number): Buffer {
  const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
  const chunk = Buffer.from([
    ...Buffer.from('VP8X'),
    ...[10, 0, 0, 0],
    ...[0, 0, 0, 0],
    ...le24(width - 1),
    ...le24(height - 1),
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length, 0);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), chunk]);
}

export function tiff(): Promise<Buffer> {
  return noise(64, 64).tiff().toBuffer();
}

export const svgWithScript = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
    '<script>alert(document.cookie)</script><rect width="100" height="100" fill="red"/></svg>',
);

export const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

export const text = Buffer.from('This is not a picture, whatever its name says.\n');

/** Starts like a JPEG (so only the size limit can stop it), 1 byte over 10 MB. */
export function oversizedJpegLike(): Buffer {
  const data = randomBytes(10 * 1024 * 1024 + 1);
  data.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return data;
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body as a browser would send it. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----PerchTestBoundary${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('data' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(payload.length),
    },
  };
}

export const filePart = (
  data: Buffer,
  filename = 'photo.jpg',
  contentType = 'image/jpeg',
): Part => ({ name: 'file', filename, contentType, data });

/** Every file under a directory (relative paths, sorted), hidden ones included. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
