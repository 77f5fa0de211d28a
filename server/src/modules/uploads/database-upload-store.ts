import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '../../db/client.ts';
import { UPLOAD_KEY_PATTERN, UPLOADS_URL_PREFIX, type StoredFileInfo, type UploadStore } from './upload-store.ts';

/** Bytes read per query: one round trip for almost every image, bounded memory for the rare large one. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

export const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
/** The ETag of stored bytes: derived from their checksum, so every instance answers the same. */
export const etagOfChecksum = (sha256: string) => `"${sha256.slice(0, 32)}"`;

interface HeadRow {
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date | string;
}

const toBuffer = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(v as Uint8Array));

function infoOf(row: HeadRow): StoredFileInfo {
  return {
    size: Number(row.size),
    contentType: row.content_type,
    modifiedAt: new Date(row.created_at),
    etag: etagOfChecksum(row.sha256),
  };
}

/**
 * Upload originals in the `uploads` table, seen by every instance on the same database. Reads are
 * streamed in UPLOAD_CHUNK_BYTES slices (the column is stored uncompressed, so `substring` reads
 * only the chunks it needs); the first slice comes with the metadata in one query.
 */
export function createDatabaseUploadStore(database: Database): UploadStore {
  const head = async (key: string): Promise<StoredFileInfo | null> => {
    if (!UPLOAD_KEY_PATTERN.test(key)) return null;
    const [row] = await database.query<HeadRow>('SELECT content_type, size, sha256, created_at FROM uploads WHERE key = $1', [key]);
    return row ? infoOf(row) : null;
  };
  return {
    kind: 'database',
    async put(key, body, contentType) {
      if (!UPLOAD_KEY_PATTERN.test(key)) throw new Error(`invalid upload key: ${key}`);
      await database.query(
        `INSERT INTO uploads (key, content_type, size, sha256, data) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size,
           sha256 = EXCLUDED.sha256, data = EXCLUDED.data, created_at = now()`,
        [key, contentType, body.length, sha256Hex(body), body],
      );
      return `${UPLOADS_URL_PREFIX}${key}`;
    },
    async get(key) {
      if (!UPLOAD_KEY_PATTERN.test(key)) return null;
      const [row] = await database.query<HeadRow & { first: Uint8Array }>(
        'SELECT content_type, size, sha256, created_at, substring(data FROM 1 FOR $2) AS first FROM uploads WHERE key = $1',
        [key, UPLOAD_CHUNK_BYTES],
      );
      if (!row) return null;
      const info = infoOf(row);
      const first = toBuffer(row.first);
      async function* chunks() {
        yield first;
        for (let offset = first.length; offset < info.size; offset += UPLOAD_CHUNK_BYTES) {
          const [next] = await database.query<{ chunk: Uint8Array | null; sha256: string }>(
            'SELECT substring(data FROM $2 FOR $3) AS chunk, sha256 FROM uploads WHERE key = $1',
            [key, offset + 1, UPLOAD_CHUNK_BYTES],
          );
          // Replaced or removed while being read: fail the response rather than mix two files.
          if (!next?.chunk || etagOfChecksum(next.sha256) !== info.etag) throw new Error(`upload ${key} changed while being read`);
          yield toBuffer(next.chunk);
        }
      }
      return { ...info, body: Readable.from(chunks(), { objectMode: false }) };
    },
    head,
    async has(key) {
      return (await head(key)) !== null;
    },
    async remove(key) {
      if (!UPLOAD_KEY_PATTERN.test(key)) return;
      await database.query('DELETE FROM uploads WHERE key = $1', [key]);
    },
    async list() {
      const rows = await database.query<{ key: string }>('SELECT key FROM uploads ORDER BY key COLLATE "C"');
      return rows.map((r) => r.key);
    },
  };
}
