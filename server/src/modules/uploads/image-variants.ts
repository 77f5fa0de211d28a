import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { IMAGE_VARIANT_WIDTHS } from '@shop/contracts';
import { newId } from '../../lib/ids.ts';
import { loadSharp } from '../../lib/sharp.ts';
import { diskFullCause } from '../../lib/storage-full.ts';
import { MAX_INPUT_PIXELS } from './process-image.ts';
import { UPLOAD_KEY_PATTERN, type StoredFile, type UploadStore } from './upload-store.ts';

const WIDTHS = new Set<number>(IMAGE_VARIANT_WIDTHS);

/** The allowed variant width written as `width` (digits only, one of IMAGE_VARIANT_WIDTHS), else null. */
export function parseVariantWidth(width: string): number | null {
  if (!/^[1-9][0-9]{0,4}$/.test(width)) return null;
  const n = Number(width);
  return WIDTHS.has(n) ? n : null;
}

/** Resizes a stored WebP to `width` (never enlarging) and re-encodes it as WebP. */
export async function resizeWebp(input: Buffer, width: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 80, effort: 4 })
    .toBuffer();
}

/**
 * Resized copies of the images in an upload store, made on first request and cached on this
 * instance's disk under `${cacheDir}/{width}/{key}.{version}`, where the version comes from the
 * original's ETag: a replaced original gets new copies, a copy whose original is gone is never
 * served, and deleting the whole cache loses nothing (copies are made again on a miss).
 */
export function createImageVariants(store: UploadStore, cacheDir: string) {
  const pending = new Map<string, Promise<Buffer | null>>();

  /** Makes the copy and caches it; answers its bytes (null: no such original). A full disk only costs the cache. */
  async function make(key: string, width: number, file: string, etag: string): Promise<Buffer | null> {
    const original = await store.get(key);
    if (!original) return null;
    if (original.etag !== etag) {
      original.body.destroy(); // replaced in between: the next request makes the new copy
      return null;
    }
    const resized = await resizeWebp(await buffer(original.body), width);
    // Write then rename, so a reader never sees half a file.
    const tmp = `${file}.${newId()}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp, resized);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      // No space for the cache (ENOSPC, EDQUOT): the copy is served from memory, made again next time.
      if (!diskFullCause(err)) throw err;
    }
    return resized;
  }

  return {
    /** The `width` px wide copy of the stored image `key`, or null when there is no such image. */
    async get(key: string, width: number): Promise<StoredFile | null> {
      if (!UPLOAD_KEY_PATTERN.test(key) || !WIDTHS.has(width)) return null;
      const original = await store.head(key);
      if (!original) return null;
      const version = original.etag.replace(/[^0-9a-zA-Z-]/g, '');
      const file = path.join(cacheDir, String(width), `${key}.${version}`);
      let info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        // One resize per copy, however many requests ask for it at once.
        const id = `${width}/${key}/${version}`;
        let job = pending.get(id);
        if (!job) {
          job = make(key, width, file, original.etag).finally(() => pending.delete(id));
          pending.set(id, job);
        }
        const made = await job;
        info = await stat(file).catch(() => null);
        if (!info?.isFile()) {
          if (!made) return null;
          return { body: Readable.from([made]), size: made.length, contentType: 'image/webp', modifiedAt: original.modifiedAt, etag: `"${version}-w${width}"` };
        }
      }
      return {
        body: createReadStream(file),
        size: info.size,
        contentType: 'image/webp',
        modifiedAt: original.modifiedAt,
        // Derived from the original, so every instance of a fleet answers the same validator.
        etag: `"${version}-w${width}"`,
      };
    },
  };
}

export type ImageVariants = ReturnType<typeof createImageVariants>;
