import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { listTables } from '../db/catalog.ts';
import { openDatabase } from '../db/client.ts';
import { claimPgliteDir } from '../db/pglite-lock.ts';
import { newId } from '../lib/ids.ts';
import { diskUploadsDir, UPLOAD_KEY_PATTERN, variantCacheDir } from '../modules/uploads/upload-store.ts';
import { DUMP_FILES, formatBytes, readManifest, sha256OfFile, summarizeManifest, type BackupManifest } from './backup.ts';
import { openPglite, pgliteTransaction, runPgTool } from './pg-tools.ts';
import { compareTableStats, tableStats } from './table-stats.ts';

/** The target already holds data and --force was not given. */
export class RestoreRefusedError extends Error {}

export interface RestoreOptions {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgBinDir'>;
  file: string;
  /** Replace whatever the database and data directory hold. */
  force?: boolean;
  log?: (line: string) => void;
}

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
 * `force`, replaces what they hold), then checks every table's row count and checksum and every
 * image's checksum against the backup's manifest.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<BackupManifest> {
  const log = opts.log ?? (() => {});
  const { dataDir, databaseUrl } = opts.config;
  const file = path.resolve(opts.file);
  if (!existsSync(file)) throw new Error(`No such backup file: ${file}`);
  await mkdir(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${newId()}`);
  await mkdir(staging);
  try {
    log(`reading ${file}`);
    await tar.extract({ file, cwd: staging, filter: (p) => isBackupEntry(p), strict: true });
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

    const uploadsDir = diskUploadsDir(dataDir);
    const pgliteDir = path.join(dataDir, 'pglite');
    const occupied: string[] = [];
    if (await nonEmptyDir(uploadsDir)) occupied.push(`${uploadsDir} holds files`);
    if (kind === 'pglite' && (await nonEmptyDir(pgliteDir))) occupied.push(`${pgliteDir} holds a database`);

    if (kind === 'postgres') {
      const database = await openDatabase({ databaseUrl, poolSize: 2 });
      try {
        const tables = await listTables(database);
        if (tables.length) occupied.unshift(`the database has ${tables.length} tables (${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', ...' : ''})`);
        refuseUnlessForced(occupied, opts.force);
        if (tables.length) {
          log('  --force: dropping everything in schema public');
          await database.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
        }
      } finally {
        await database.close();
      }
      await clearDataDir(uploadsDir, dataDir);
      log('  restoring the database with pg_restore (one transaction)');
      await runPgTool('pg_restore', databaseUrl!, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dumpPath], opts.config.pgBinDir);
      const verify = await openDatabase({ databaseUrl, poolSize: 2 });
      try {
        await verify.rawTransaction(async (tx) => {
          assertSame(manifest, await tableStats(tx));
          const images = await tx.query<{ key: string; size: number; sha256: string; ok: boolean }>(
            `SELECT key, size, sha256, encode(sha256(data), 'hex') = sha256 AS ok FROM uploads ORDER BY key COLLATE "C"`,
          );
          const bad = images.filter((i) => !i.ok).map((i) => i.key);
          if (bad.length) throw new Error(`Restored images do not match their checksums: ${bad.slice(0, 5).join(', ')}`);
          assertSameImages(manifest, images.map((i) => ({ key: i.key, size: Number(i.size), sha256: i.sha256 })));
        });
      } finally {
        await verify.close();
      }
    } else {
      refuseUnlessForced(occupied, opts.force);
      const release = claimPgliteDir(pgliteDir, 'a restore');
      try {
        await rm(pgliteDir, { recursive: true, force: true });
        await clearDataDir(uploadsDir, dataDir);
        log('  restoring the embedded database from its data-directory dump');
        try {
          const client = await openPglite(pgliteDir, new Blob([await readFile(dumpPath)]));
          try {
            await pgliteTransaction(client, async (tx) => assertSame(manifest, await tableStats(tx)));
          } finally {
            await client.close();
          }
        } catch (err) {
          await rm(pgliteDir, { recursive: true, force: true }); // leave the target empty, as it was
          throw err;
        }
      } finally {
        release();
      }
      log(`  copying ${manifest.uploads.count} images`);
      await mkdir(uploadsDir, { recursive: true });
      const restored = [];
      for (const f of manifest.uploads.files) {
        const source = path.join(staging, 'uploads', f.key);
        const actual = existsSync(source) ? await sha256OfFile(source) : 'missing';
        if (actual !== f.sha256) throw new Error(`The backup is damaged: image ${f.key} does not match its checksum`);
        await copyFile(source, path.join(uploadsDir, f.key));
        restored.push(f);
      }
      assertSameImages(manifest, restored);
    }
    log(`  verified: ${manifest.tables.length} tables (row counts and checksums) and ${manifest.uploads.count} images (checksums) match the backup`);
    log(`restored ${summarizeManifest(manifest)}:`);
    for (const t of manifest.tables) log(`  ${t.name.padEnd(24)} ${String(t.rows).padStart(8)} rows`);
    log(`  ${'images'.padEnd(24)} ${String(manifest.uploads.count).padStart(8)} (${formatBytes(manifest.uploads.bytes)})`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function refuseUnlessForced(occupied: string[], force: boolean | undefined) {
  if (occupied.length && !force) {
    throw new RestoreRefusedError(`Refusing to restore into a target that is not empty: ${occupied.join('; ')}. Use --force to replace it.`);
  }
}

/** Removes the originals on disk and the resized-copy cache (a restored shop makes its copies anew). */
async function clearDataDir(uploadsDir: string, dataDir: string) {
  await rm(uploadsDir, { recursive: true, force: true });
  await rm(variantCacheDir(dataDir), { recursive: true, force: true });
}

function assertSame(manifest: BackupManifest, actual: Awaited<ReturnType<typeof tableStats>>) {
  const diffs = compareTableStats(manifest.tables, actual);
  if (diffs.length) throw new Error(`The restored database differs from the backup: ${diffs.join('; ')}`);
}

function assertSameImages(manifest: BackupManifest, actual: Array<{ key: string; size: number; sha256: string }>) {
  const expected = JSON.stringify(manifest.uploads.files);
  if (JSON.stringify(actual) !== expected) {
    throw new Error(`The restored images differ from the backup: ${actual.length} restored, ${manifest.uploads.count} expected`);
  }
}
