import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { openTestDatabase, TEST_DB } from '../../test/test-app.ts';
import { createDatabaseUploadStore, sha256Hex, UPLOAD_CHUNK_BYTES } from './database-upload-store.ts';
import { moveDiskUploads } from './move-disk-uploads.ts';
import { createLocalUploadStore, type UploadStore } from './upload-store.ts';

// The database store is what a fleet on PostgreSQL uses; it is plain SQL, so it is checked on
// both databases.
describe(`database upload store on ${TEST_DB}`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let store: UploadStore;
  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase());
    store = createDatabaseUploadStore(database);
  });
  afterAll(async () => { await cleanup(); });

  it('stores bytes with content type, size, checksum and time, and reads them back', async () => {
    const bytes = randomBytes(1000);
    expect(await store.put('one.webp', bytes, 'image/webp')).toBe('/uploads/one.webp');
    const [row] = await database.query<{ content_type: string; size: number; sha256: string; created_at: Date }>(
      "SELECT content_type, size, sha256, created_at FROM uploads WHERE key = 'one.webp'",
    );
    expect(row).toMatchObject({ content_type: 'image/webp', size: 1000, sha256: sha256Hex(bytes) });
    const file = await store.get('one.webp');
    expect(file).not.toBeNull();
    expect(file!.size).toBe(1000);
    expect(file!.contentType).toBe('image/webp');
    expect(file!.etag).toBe(`"${sha256Hex(bytes).slice(0, 32)}"`);
    expect(file!.modifiedAt.getTime()).toBe(new Date(row!.created_at).getTime());
    expect(Buffer.compare(await buffer(file!.body), bytes)).toBe(0);
    expect(await store.head('one.webp')).toEqual({ size: 1000, contentType: 'image/webp', modifiedAt: file!.modifiedAt, etag: file!.etag });
    expect(await store.has('one.webp')).toBe(true);
  });

  it('streams a file larger than one chunk intact, in several reads', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_BYTES * 2 + 12_345);
    await store.put('big.webp', bytes, 'image/webp');
    const file = await store.get('big.webp');
    const chunks: Buffer[] = [];
    for await (const chunk of file!.body) chunks.push(chunk as Buffer);
    expect(chunks.map((c) => c.length)).toEqual([UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, 12_345]);
    expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0);
  });

  it('fails the stream rather than mixing two files when one is replaced during a read', async () => {
    await store.put('swap.webp', randomBytes(UPLOAD_CHUNK_BYTES + 10), 'image/webp');
    const file = await store.get('swap.webp');
    await store.put('swap.webp', randomBytes(UPLOAD_CHUNK_BYTES + 10), 'image/webp');
    await expect(buffer(file!.body)).rejects.toThrow('upload swap.webp changed while being read');
  });

  it('answers null for unknown and malformed keys, lists keys in order, removes', async () => {
    expect(await store.get('missing.webp')).toBeNull();
    expect(await store.head('../etc/passwd')).toBeNull();
    expect(await store.get('UPPER.webp')).toBeNull();
    await expect(store.put('bad/key.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow('invalid upload key');
    expect(await store.list()).toEqual(['big.webp', 'one.webp', 'swap.webp']);
    await store.remove('big.webp');
    expect(await store.has('big.webp')).toBe(false);
    expect(await store.list()).toEqual(['one.webp', 'swap.webp']);
  });

  it('moves uploads left on disk into the database once: a second run finds nothing, conflicts stay on disk', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'shop-move-')), 'uploads');
    mkdirSync(dir);
    const files = new Map([['a-1.webp', randomBytes(300)], ['b-2.webp', randomBytes(UPLOAD_CHUNK_BYTES + 1)], ['c-3.webp', randomBytes(50)]]);
    for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);
    // An earlier run stored c-3 already (then stopped before removing it from disk).
    await store.put('c-3.webp', files.get('c-3.webp')!, 'image/webp');
    writeFileSync(path.join(dir, 'half.webp.123.tmp'), 'partial');
    writeFileSync(path.join(dir, 'notes.txt'), 'not an upload');

    const first = await moveDiskUploads(dir, store);
    expect(first).toEqual({ moved: 2, alreadyStored: 1, conflicts: [] });
    for (const [name, bytes] of files) expect(Buffer.compare(await buffer((await store.get(name))!.body), bytes), name).toBe(0);
    // Only the file that is not an upload is left, so the directory stays.
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    expect(await moveDiskUploads(dir, store)).toEqual({ moved: 0, alreadyStored: 0, conflicts: [] });

    // Same key, other bytes: the database copy wins and the disk file is kept for a person to see.
    writeFileSync(path.join(dir, 'a-1.webp'), randomBytes(300));
    expect(await moveDiskUploads(dir, store)).toEqual({ moved: 0, alreadyStored: 0, conflicts: ['a-1.webp'] });
    expect(Buffer.compare(await buffer((await store.get('a-1.webp'))!.body), files.get('a-1.webp')!)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['a-1.webp', 'notes.txt']);

    // Once everything has moved, the directory itself goes.
    const clean = path.join(path.dirname(dir), 'uploads-2');
    mkdirSync(clean);
    writeFileSync(path.join(clean, 'd-4.webp'), randomBytes(10));
    expect(await moveDiskUploads(clean, store)).toEqual({ moved: 1, alreadyStored: 0, conflicts: [] });
    expect(existsSync(clean)).toBe(false);
    expect(await moveDiskUploads(clean, store)).toEqual({ moved: 0, alreadyStored: 0, conflicts: [] });
  });

  it('refuses to move into a disk store (bytes could not be verified)', async () => {
    const disk = createLocalUploadStore(mkdtempSync(path.join(tmpdir(), 'shop-disk-')));
    await expect(moveDiskUploads('/nonexistent', disk)).rejects.toThrow('disk uploads move into the database store only');
  });
});
