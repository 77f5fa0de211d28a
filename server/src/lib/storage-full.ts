import { statfs } from 'node:fs/promises';

/*
 * A full disk (issue 32, item 10). The embedded database's data directory, the upload store on disk
 * and the resized-image cache live in DATA_DIR; on PostgreSQL the database's own disk may fill. A
 * write that finds no space fails with PostgreSQL's SQLSTATE 53100 disk_full ("could not extend
 * file ...: No space left on device", PGlite alike) or Node's ENOSPC / EDQUOT (a quota). That is
 * not the request's fault and not a bug: the shop answers 503 with Retry-After and a clear message
 * (lib/http-errors.ts), nothing is half-written (the statement or transaction fails as a whole; an
 * upload is written to a temporary file that is removed), /api/ready says what is full, the log
 * says which path or database, and everything works again once space returns, without a restart.
 */

export const STORAGE_FULL_MESSAGE = "The shop's storage is full. Please try again later.";
export const STORAGE_FULL_CODE = 'STORAGE_FULL';
/** Someone must free space: a minute is a fair first wait. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;
/** A local directory with less free space than this counts as full (PostgreSQL/PGlite extend files 8 kB at a time, WAL more). */
export const STORAGE_MIN_FREE_BYTES = 1024 * 1024;
/** How long a disk-full error keeps /api/ready at 503 when no free-space reading can clear it sooner (PostgreSQL's disk). */
export const STORAGE_FULL_HOLD_MS = 30_000;

/** PostgreSQL's SQLSTATE 53100 disk_full. */
const DISK_FULL_SQLSTATE = '53100';
/** Node's errors for a write that found no space: the device, or the user's quota. */
const DISK_FULL_ERRNOS = new Set(['ENOSPC', 'EDQUOT']);

/** What a disk-full error says is full. */
export type StorageFullCause =
  | { what: 'database'; code: string; detail: string }
  | { what: 'disk'; code: string; path: string | null; syscall: string | null };

/** The disk-full error in `err` or its `cause` chain (Drizzle wraps the driver's error), or null. */
export function diskFullCause(err: unknown): StorageFullCause | null {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current) && seen.size < 10) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; path?: unknown; syscall?: unknown; errno?: unknown };
    if (e.code === DISK_FULL_SQLSTATE) return { what: 'database', code: DISK_FULL_SQLSTATE, detail: typeof e.message === 'string' ? e.message : '' };
    if (typeof e.code === 'string' && DISK_FULL_ERRNOS.has(e.code)) {
      return { what: 'disk', code: e.code, path: typeof e.path === 'string' ? e.path : null, syscall: typeof e.syscall === 'string' ? e.syscall : null };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** A local directory the shop writes to, watched for free space. */
export interface WatchedDir {
  /** What lives there, for the report ("the embedded database", "uploaded images"). */
  label: string;
  path: string;
}

/** What /api/ready reports while something is full. */
export interface StorageFullReport {
  /** One sentence: what is full. */
  reason: string;
  /** For the log: the paths or the database. */
  details: Record<string, unknown>;
}

export interface StorageHealth {
  /** Notes a disk-full error just seen (the error handler calls it). */
  noteFull(cause: StorageFullCause): void;
  /** null while the shop can write; else what is full. Reads the free space of the watched directories. */
  check(): Promise<StorageFullReport | null>;
}

export interface StorageHealthOptions {
  /** The local directories to watch (DATA_DIR, the PGlite data, the disk upload store). */
  dirs: WatchedDir[];
  /** Where a disk-full error from the database is (`pglite`: in a watched directory; `postgres`: the server's own disk). */
  database: 'pglite' | 'postgres';
  minFreeBytes?: number;
  holdMs?: number;
  /** Free bytes available to the shop in the file system of `path` (tests replace it). */
  freeBytes?: (path: string) => Promise<number>;
  now?: () => number;
}

async function statfsFreeBytes(path: string): Promise<number> {
  const s = await statfs(path);
  return Number(s.bavail) * Number(s.bsize);
}

/**
 * Whether the shop's storage is full now. A watched directory is full while its free space is below
 * `minFreeBytes` (read on each check, so it clears the moment space returns: ENOSPC in DATA_DIR and
 * the embedded database's 53100 are judged this way). What free space cannot tell, a disk-full
 * error from PostgreSQL (its disk is the server's) or a quota (EDQUOT), keeps the report for
 * `holdMs` after the last such error.
 */
export function createStorageHealth(opts: StorageHealthOptions): StorageHealth {
  const minFree = opts.minFreeBytes ?? STORAGE_MIN_FREE_BYTES;
  const holdMs = opts.holdMs ?? STORAGE_FULL_HOLD_MS;
  const freeBytes = opts.freeBytes ?? statfsFreeBytes;
  const now = opts.now ?? Date.now;
  let lastUnseen: { at: number; cause: StorageFullCause } | null = null;
  return {
    noteFull(cause) {
      const seenByStatfs = cause.what === 'database' ? opts.database === 'pglite' : cause.code === 'ENOSPC';
      if (!seenByStatfs) lastUnseen = { at: now(), cause };
    },
    async check() {
      for (const dir of opts.dirs) {
        const free = await freeBytes(dir.path).catch(() => null);
        if (free !== null && free < minFree) {
          return { reason: `Storage full: ${dir.label} has ${formatBytes(free)} free`, details: { path: dir.path, freeBytes: free, label: dir.label } };
        }
      }
      if (lastUnseen && now() - lastUnseen.at < holdMs) {
        const { cause } = lastUnseen;
        const reason = cause.what === 'database' ? 'Storage full: the database server has no space left' : 'Storage full: the disk quota is used up';
        return { reason, details: { ...cause } };
      }
      lastUnseen = null;
      return null;
    },
  };
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.floor(n / 1024)} kB`;
  return `${Math.floor(n / 1024 / 1024)} MB`;
}
