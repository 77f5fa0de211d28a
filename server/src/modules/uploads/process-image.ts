import { UPLOAD_MESSAGES } from '@shop/contracts';
import type { Metadata } from 'sharp';
import { badRequest } from '../../lib/errors.ts';
import { loadSharp } from '../../lib/sharp.ts';

/** Longest side of a stored product image. */
export const MAX_IMAGE_SIDE = 1600;
/** Refuse decompression bombs: a 5 MB file may claim a gigapixel canvas. */
export const MAX_INPUT_PIXELS = 40_000_000;

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);

/**
 * Detects the image type from its bytes (never the file name) and accepts JPEG, PNG, WebP, GIF
 * and AVIF only. Throws a 400 with a clear message otherwise.
 */
export async function sniffImage(input: Buffer): Promise<{ format: string; width: number; height: number }> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(UPLOAD_MESSAGES.notImage, { file: UPLOAD_MESSAGES.notImage });
  }
  const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  if (!format || !(ACCEPTED.has(format) || format === 'avif')) {
    throw badRequest(UPLOAD_MESSAGES.notImage, { file: UPLOAD_MESSAGES.notImage });
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw badRequest(UPLOAD_MESSAGES.notImage, { file: UPLOAD_MESSAGES.notImage });
  if (width * height > MAX_INPUT_PIXELS) throw badRequest(UPLOAD_MESSAGES.tooManyPixels, { file: UPLOAD_MESSAGES.tooManyPixels });
  return { format, width, height };
}

/**
 * Re-encodes an accepted image to WebP: applies the EXIF orientation, strips all metadata (sharp
 * writes none unless asked), fits it inside MAX_IMAGE_SIDE without enlarging, keeps the first
 * frame of an animation. Re-encoding also means no polyglot file is ever served back.
 */
export async function toWebp(input: Buffer, maxSide = MAX_IMAGE_SIDE): Promise<Buffer> {
  await sniffImage(input);
  const sharp = await loadSharp();
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer();
  } catch {
    throw badRequest(UPLOAD_MESSAGES.notImage, { file: UPLOAD_MESSAGES.notImage });
  }
}
