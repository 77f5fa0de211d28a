import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { listTables } from '../db/catalog.ts';
import { openDatabase } from '../db/client.ts';
import { claimPgliteDir } from '../db/pglite-lock.ts';
import { newId } from '../lib/ids.ts';
import { diskUploadsDir, UPLOAD_KEY_PATTERN, variantCacheDir } from '../modules/uploads/upload-store.ts';
import { describePersonalData, DUMP_FILES, formatBytes, readManifest, sha256OfFile, summarizeManifest, type BackupManifest } from './backup.ts';
import { decryptingStream, isEncryptedBackup } from './backup-crypto.ts';
import { openPglite, pgliteTransaction, runPgTool } from './pg-tools.ts';
import { compareTableStats, tableStats } from './table-stats.ts';

const gunzipAsync = promisify(gunzip);

/** The target already holds data and --force was not given. */
export class RestoreRefusedError extends Error {}

export interface RestoreOptions {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgBinDir'>;
  file: string;
  /** Replace whatever the database and data directory hold. */
  force?: boolean;
  /** The passphrase of an encrypted backup (BACKUP_PASSPHRASE or --passphrase-file). */
  passphrase?: string | undefined;
  log?: (line: string) => void;
}

/** Every scratch folder of a restore is named so (inside DATA_DIR); one left by a killed restore is removed by the next. */
const STAGING_PREFIX = '.restore-';

/** The decrypted archive of an encrypted backup, inside the scratch folder (no backup entry has this name). */
const DECRYPTED_ARCHIVE = '.decrypted.tar';

const nonEmptyDir = async (dir: string) => ((await readdir(dir).catch(() => [])) as string[]).length > 0;

/** Only what a backup holds is extracted: the manifest, the dump, and image files with valid keys. */
function isBackupEntry(entryPath: string): boolean {
  const p = entryPath.replace(/^\.\//, '').replace(/\/$/, '');
  if (p === 'manifest.json' || p === DUMP_FILES.postgres || p === DUMP_FILES.pglite || p === 'uploads') return true;
  const m = /^uploads\/([^/]+)$/.exec(p);
  return !!m && UPLOAD_KEY_PATTERN.test(m[1]!);
}

function describeTarget(m: BackupManifest): string {
  return m.database.kind === 'postgres' ? 'PostgreSQL (set DATABASE_URL)' : 'the embedded database (leave DATABASE_URL unset)';
}

/**
 * Restores a backup made by createBackup into an empty database and data directory (or, with
 * `force`, replaces what they hold). Nothing is changed until the restored copy has been verified
 * (every table's row count and checksum, every image's checksum, against the manifest):
 *
 * - PostgreSQL: one transaction (psql --single-transaction) drops the schema, loads the dump and
 *   runs the verification; a failure anywhere rolls all of it back, so the old data stays.
 * - PGlite: the dump is loaded into a new directory and the images copied beside it, both
 *   verified, then swapped in by renaming (and renamed back if a rename fails).
 *
 * All scratch files (the extracted, possibly decrypted, dump) live in one `DATA_DIR/.restore-*`
 * folder that is removed whatever the outcome.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<BackupManifest> {
  const log = opts.log ?? (() => {});
  const { dataDir, databaseUrl } = opts.config;
  const file = path.resolve(opts.file);
  if (!existsSync(file)) throw new Error(`No such backup file: ${file}`);
  await mkdir(dataDir, { recursive: true });
  await removeStaleStaging(dataDir);
  const staging = path.join(dataDir, `${STAGING_PREFIX}${newId()}`);
  await mkdir(staging, { mode: 0o700 });
  try {
    log(`reading ${file}`);
    await extractBackup(file, staging, opts.passphrase, log);
    const manifest = await readManifest(staging);
    const kind = databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database.kind !== kind) {
      throw new Error(`This backup is of ${describeTarget(manifest)}; it restores only into the same kind of database`);
    }
    const dumpPath = path.join(staging, manifest.database.file);
    if (!existsSync(dumpPath) || (await sha256OfFile(dumpPath)) !== manifest.database.sha256) {
      throw new Error('The backup is damaged: its database dump does not match the manifest checksum');
    }
    log(`backup of ${manifest.createdAt}: ${summarizeManifest(manifest)}`);
    log(`  personal data in it: ${describePersonalData(manifest)}`);

    if (kind === 'postgres') await restorePostgres(opts, databaseUrl!, manifest, staging, dumpPath, log);
    else await restorePglite(opts, manifest, staging, dumpPath, log);

    log(`  verified: ${manifest.tables.length} tables (row counts and checksums) and ${manifest.uploads.count} images (checksums) match the backup`);
    log(`restored ${summarizeManifest(manifest)}:`);
    for (const t of manifest.tables) log(`  ${t.name.padEnd(24)} ${String(t.rows).padStart(8)} rows`);
    log(`  ${'images'.padEnd(24)} ${String(manifest.uploads.count).padStart(8)} (${formatBytes(manifest.uploads.bytes)})`);
    return manifest;
  } finally {
    // Retried on ENOTEMPTY/EBUSY; a folder that still cannot go is removed by the next restore, and
    // never hides the restore's own outcome.
    await rm(staging, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
      .catch((err: unknown) => log(`could not remove the scratch folder ${staging}: ${err instanceof Error ? err.message : String(err)}`));
  }
}

async function removeStaleStaging(dataDir: string) {
  for (const name of await readdir(dataDir).catch(() => [] as string[])) {
    if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}

async function extractBackup(file: string, staging: string, passphrase: string | undefined, log: (l: string) => void) {
  const options = { cwd: staging, filter: (p: string) => isBackupEntry(p), strict: true };
  try {
    if (await isEncryptedBackup(file)) {
      if (!passphrase) throw new Error('This backup is encrypted: give its passphrase (BACKUP_PASSPHRASE or --passphrase-file <file>)');
      // decryptingStream checks the passphrase against the file's key check first (a wrong one throws
      // here): only then is it said to be right.
      const decrypting = await decryptingStream(file, passphrase);
      log('  decrypting (the passphrase is right; the whole file is authenticated before anything is extracted)');
      // Decrypted into one file first, extracted only once all of it authenticated: nothing of an
      // altered file is ever unpacked, and a failure leaves no unpacking still writing into the
      // scratch folder while it is removed (extracting straight from the decrypting stream did: the
      // clean-up then failed with ENOTEMPTY, in place of the real error).
      const decrypted = path.join(staging, DECRYPTED_ARCHIVE);
      await pipeline(decrypting, createWriteStream(decrypted, { mode: 0o600 }));
      await tar.extract({ ...options, file: decrypted });
      await rm(decrypted, { force: true });
    } else {
      await tar.extract({ ...options, file });
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/unable to authenticate data/i.test(message)) throw new Error('The encrypted backup is damaged or was altered: it does not authenticate');
    if (/^(This backup is encrypted|Wrong passphrase|The encrypted backup|Not an encrypted)/.test(message)) throw err;
    throw new Error(`The backup is damaged: it cannot be read as an archive (${message})`);
  }
}

function refuseUnlessForced(occupied: string[], force: boolean | undefined) {
  if (occupied.length && !force) {
    throw new RestoreRefusedError(`Refusing to restore into a target that is not empty: ${occupied.join('; ')}. Use --force to replace it.`);
  }
}

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** md5 of "key:size:sha256,..." over the manifest's images, as the verification computes it in SQL. */
function imagesDigest(files: BackupManifest['uploads']['files']): string {
  return createHash('md5').update(files.map((f) => `${f.key}:${f.size}:${f.sha256}`).join(',')).digest('hex');
}

/** The SQL that checks, inside the restoring transaction, that the database is what the manifest says. */
function verificationSql(manifest: BackupManifest): string {
  const checks: string[] = [];
  for (const t of manifest.tables) {
    if (!SAFE_NAME.test(t.name)) throw new Error(`The backup's manifest names a table that cannot exist: ${JSON.stringify(t.name)}`);
    checks.push(`
  SELECT count(*)::text, md5(coalesce(string_agg(h, '' ORDER BY h COLLATE "C"), '')) INTO n, c
    FROM (SELECT md5(t::text) AS h FROM public."${t.name}" t) x;
  IF n <> ${literal(String(t.rows))} THEN RAISE EXCEPTION 'table ${t.name} has % rows, expected ${t.rows}', n; END IF;
  IF c <> ${literal(t.checksum)} THEN RAISE EXCEPTION 'table ${t.name} has other contents (checksum %, expected %)', c, ${literal(t.checksum)}; END IF;`);
  }
  const names = manifest.tables.map((t) => literal(t.name)).join(', ') || "''";
  const hasUploads = manifest.tables.some((t) => t.name === 'uploads');
  return `SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, MDY'; SET LOCAL IntervalStyle = 'postgres';
SET LOCAL extra_float_digits = 1; SET LOCAL bytea_output = 'hex';
DO $verify$
DECLARE n text; c text;
BEGIN${checks.join('')}
  SELECT string_agg(cl.relname, ', ') INTO c FROM pg_catalog.pg_class cl JOIN pg_catalog.pg_namespace ns ON ns.oid = cl.relnamespace
    WHERE ns.nspname = 'public' AND cl.relkind IN ('r', 'p') AND cl.relname NOT IN (${names});
  IF c IS NOT NULL THEN RAISE EXCEPTION 'tables not in the backup: %', c; END IF;
${hasUploads ? `  SELECT string_agg(key, ', ') INTO c FROM (SELECT key FROM public.uploads WHERE encode(sha256(data), 'hex') <> sha256 LIMIT 5) bad;
  IF c IS NOT NULL THEN RAISE EXCEPTION 'restored images do not match their checksums: %', c; END IF;
  SELECT md5(coalesce(string_agg(key || ':' || size || ':' || sha256, ',' ORDER BY key COLLATE "C"), '')) INTO c FROM public.uploads;
  IF c <> ${literal(imagesDigest(manifest.uploads.files))} THEN RAISE EXCEPTION 'the restored images differ from the backup'; END IF;
` : ''}END
$verify$;
`;
}

async function restorePostgres(
  opts: RestoreOptions, databaseUrl: string, manifest: BackupManifest, staging: string, dumpPath: string, log: (l: string) => void,
) {
  const { dataDir } = opts.config;
  const uploadsDir = diskUploadsDir(dataDir);
  const occupied: string[] = [];
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    const tables = await listTables(database);
    if (tables.length) occupied.push(`the database has ${tables.length} tables (${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', ...' : ''})`);
  } finally {
    await database.close();
  }
  if (await nonEmptyDir(uploadsDir)) occupied.push(`${uploadsDir} holds files`);
  refuseUnlessForced(occupied, opts.force);

  // The dump as a script (no connection yet: a pg_restore that fails here changes nothing).
  const body = path.join(staging, 'restore.sql');
  await runPgTool('pg_restore', undefined, ['--no-owner', '--no-privileges', '--exit-on-error', `--file=${body}`, dumpPath], opts.config.pgBinDir);
  // A dump of a database whose schema public was re-created says CREATE SCHEMA public: it exists here.
  const script = await readFile(body, 'utf8');
  if (/^CREATE SCHEMA public;$/m.test(script)) await writeFile(body, script.replace(/^CREATE SCHEMA public;$/m, 'CREATE SCHEMA IF NOT EXISTS public;'));
  const prelude = path.join(staging, 'prelude.sql');
  await writeFile(prelude, 'DROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n');
  const verify = path.join(staging, 'verify.sql');
  await writeFile(verify, verificationSql(manifest));
  log(`  restoring and verifying in one transaction (${occupied.length ? 'the current data stays until it commits' : 'into the empty database'})`);
  try {
    await runPgTool('psql', databaseUrl, ['--no-psqlrc', '--quiet', '--single-transaction', '-v', 'ON_ERROR_STOP=1', '-f', prelude, '-f', body, '-f', verify], opts.config.pgBinDir);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const reason = /ERROR:\s+(.*?)(?: \||$)/.exec(message)?.[1] ?? message;
    throw new Error(`The restore was rolled back, the database is unchanged: ${reason}`);
  }
  // Committed: the originals live in the database; the disk's copies and resized cache are stale.
  await rm(uploadsDir, { recursive: true, force: true });
  await rm(variantCacheDir(dataDir), { recursive: true, force: true });
}

const DAMAGED_DUMP = 'The backup is damaged: its database dump is truncated or corrupt';

/**
 * The embedded database's dump as a whole, uncompressed tar archive (what PGlite loads), or an error saying the backup
 * is damaged. Checked here, before PGlite sees it: PGlite decompresses a gzip with a stream whose
 * failure it never awaits, so a truncated dump (its checksum matching a tampered manifest) would end
 * the process with an uncaught exception instead of failing the restore, and PGlite unpacks a
 * truncated archive without a word.
 */
export async function readPgliteDump(dumpPath: string): Promise<Blob> {
  const raw = await readFile(dumpPath);
  let archive: Uint8Array;
  try {
    archive = raw[0] === 0x1f && raw[1] === 0x8b ? await gunzipAsync(raw) : raw;
  } catch (err) {
    throw new Error(`${DAMAGED_DUMP} (${(err as Error).message})`);
  }
  const problem = await new Promise<string | null>((resolve) => {
    let entries = 0;
    let failure: string | null = null;
    const parser = new tar.Parser({ strict: true });
    parser.on('entry', (entry: tar.ReadEntry) => {
      entries += 1;
      entry.resume();
    });
    parser.on('error', (err: Error) => { failure ??= err.message; });
    parser.on('close', () => resolve(failure ?? (entries === 0 ? 'no files in it' : null)));
    parser.end(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
  });
  if (problem) throw new Error(`${DAMAGED_DUMP} (${problem})`);
  return new Blob([new Uint8Array(archive)]);
}

async function restorePglite(opts: RestoreOptions, manifest: BackupManifest, staging: string, dumpPath: string, log: (l: string) => void) {
  const { dataDir } = opts.config;
  const uploadsDir = diskUploadsDir(dataDir);
  const pgliteDir = path.join(dataDir, 'pglite');
  const occupied: string[] = [];
  if (await nonEmptyDir(uploadsDir)) occupied.push(`${uploadsDir} holds files`);
  if (await nonEmptyDir(pgliteDir)) occupied.push(`${pgliteDir} holds a database`);
  refuseUnlessForced(occupied, opts.force);
  const release = claimPgliteDir(pgliteDir, 'a restore');
  try {
    const newDb = path.join(staging, 'pglite');
    const newUploads = path.join(staging, 'uploads-restored');
    log('  restoring the embedded database into a new directory');
    const client = await openPglite(newDb, await readPgliteDump(dumpPath));
    try {
      await pgliteTransaction(client, async (tx) => {
        const diffs = compareTableStats(manifest.tables, await tableStats(tx));
        if (diffs.length) throw new Error(`The restored database differs from the backup: ${diffs.join('; ')}`);
      });
    } finally {
      await client.close();
    }
    log(`  copying ${manifest.uploads.count} images`);
    await mkdir(newUploads, { recursive: true });
    for (const f of manifest.uploads.files) {
      const source = path.join(staging, 'uploads', f.key);
      const actual = existsSync(source) ? await sha256OfFile(source) : 'missing';
      if (actual !== f.sha256) throw new Error(`The backup is damaged: image ${f.key} does not match its checksum`);
      await copyFile(source, path.join(newUploads, f.key));
    }
    // Verified: swap both in. The old ones move into the staging folder (removed afterwards).
    const swaps: Array<[string, string]> = [[newDb, pgliteDir], [newUploads, uploadsDir]];
    const done: Array<{ live: string; old: string | undefined; fresh: string }> = [];
    try {
      for (const [fresh, live] of swaps) {
        const old = existsSync(live) ? path.join(staging, `old-${path.basename(live)}`) : undefined;
        if (old) await rename(live, old);
        done.push({ live, old, fresh });
        await rename(fresh, live);
      }
    } catch (err) {
      for (const s of done.reverse()) {
        if (existsSync(s.live) && !existsSync(s.fresh)) await rename(s.live, s.fresh).catch(() => undefined);
        if (s.old) await rename(s.old, s.live).catch(() => undefined);
      }
      throw new Error(`The restore could not swap the new data in; the old data is back in place: ${err instanceof Error ? err.message : String(err)}`);
    }
    await rm(variantCacheDir(dataDir), { recursive: true, force: true });
  } finally {
    release();
  }
}
