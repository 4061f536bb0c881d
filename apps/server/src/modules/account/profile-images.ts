import type SharpModule from 'sharp';

/**
 * The image adapter of profile pictures (the only user of sharp/libvips). Files are known by
 * their first bytes, never by their name or declared type; what is stored is always a fresh
 * re-encoding, so nothing of the uploaded file (metadata, trailing bytes) is ever served.
 */
export type ImageKind = 'png' | 'jpeg' | 'webp' | 'gif' | 'other';

/**
 * sharp is loaded at the first picture, not at start: libvips and its threads are ~30 MB of
 * resident memory that an idle server, which may never see an upload, should not carry.
 */
let loadingSharp: Promise<typeof SharpModule> | undefined;
function loadSharp(): Promise<typeof SharpModule> {
  loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    // Tiles and caches are per request here: libvips' operation cache would only hold memory.
    sharp.cache(false);
    return sharp;
  });
  return loadingSharp;
}

export function sniffImage(bytes: Uint8Array): ImageKind {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const text = (offset: number, ascii: string) => [...ascii].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (text(0, 'RIFF') && text(8, 'WEBP')) return 'webp';
  if (text(0, 'GIF87a') || text(0, 'GIF89a')) return 'gif';
  return 'other';
}

export class ImageDecodeError extends Error {
  constructor(
    readonly reason: 'invalid' | 'too-many-pixels',
    cause?: unknown,
  ) {
    super(`image ${reason}`, { cause });
    this.name = 'ImageDecodeError';
  }
}

export type ProfileImages = {
  /**
   * A square WebP of `size`×`size`: turned upright (EXIF orientation), cropped to cover around
   * the most interesting region, without metadata. Throws ImageDecodeError for a broken file or
   * one over `maxPixels` (a small file can still decode to gigabytes).
   */
  toSquareWebp(bytes: Buffer, size: number): Promise<Buffer>;
};

export function createProfileImages(options: { maxPixels: number }): ProfileImages {
  return {
    async toSquareWebp(bytes, size) {
      const sharp = await loadSharp();
      try {
        return await sharp(bytes, { limitInputPixels: options.maxPixels, failOn: 'error' })
          .rotate()
          .resize(size, size, { fit: 'cover', position: sharp.strategy.attention })
          .webp({ quality: 82, effort: 4 })
          .toBuffer();
      } catch (err) {
        const message = String((err as Error)?.message ?? '');
        throw new ImageDecodeError(/pixel limit/i.test(message) ? 'too-many-pixels' : 'invalid', err);
      }
    },
  };
}
