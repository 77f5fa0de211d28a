import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { etagOfChecksum, sha256Hex } from './database-upload-store.ts';
import { contentTypeOfKey, UPLOAD_KEY_PATTERN, type UploadStore } from './upload-store.ts';

export interface MoveResult {
  /** Copied into the store, then removed from disk. */
  moved: number;
  /** Already in the store with the same bytes (an earlier, interrupted run): removed from disk. */
  alreadyStored: number;
  /** In the store with other bytes: left on disk, untouched, for a person to look at. */
  conflicts: string[];
}

/**
 * Moves originals uploaded to `dir` (the disk store, before the shop ran on PostgreSQL) into the
 * shared store. A file is removed from disk only once the store holds the same bytes, so an
 * interrupted run loses nothing and the next one finishes the job; once the directory is empty it
 * is removed, and later runs find nothing to do.
 */
export async function moveDiskUploads(dir: string, target: UploadStore): Promise<MoveResult> {
  // Bytes are compared through the checksum-based ETag, which only the database store gives.
  if (target.kind !== 'database') throw new Error('disk uploads move into the database store only');
  const result: MoveResult = { moved: 0, alreadyStored: 0, conflicts: [] };
  const names = await readdir(dir).catch(() => null);
  if (!names) return result;
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    if (name.endsWith('.tmp')) {
      await rm(file, { force: true }); // half-written by a crash: never served, never referenced
      continue;
    }
    if (!UPLOAD_KEY_PATTERN.test(name)) continue;
    const bytes = await readFile(file);
    const etag = etagOfChecksum(sha256Hex(bytes));
    const existing = await target.head(name);
    if (existing && existing.etag !== etag) {
      result.conflicts.push(name);
      continue;
    }
    if (!existing) {
      await target.put(name, bytes, contentTypeOfKey(name));
      if ((await target.head(name))?.etag !== etag) throw new Error(`upload ${name} was not stored intact`);
      result.moved += 1;
    } else {
      result.alreadyStored += 1;
    }
    await rm(file, { force: true });
  }
  await rmdir(dir).catch(() => undefined); // only succeeds when nothing is left
  return result;
}
