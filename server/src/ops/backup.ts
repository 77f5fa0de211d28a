import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { listTables } from '../db/catalog.ts';
import { openDatabase, type RawExecutor } from '../db/client.ts';
import { claimPgliteDir } from '../db/pglite-lock.ts';
import { newId } from '../lib/ids.ts';
import { createLocalUploadStore, diskUploadsDir } from '../modules/uploads/upload-store.ts';
import { encryptFile } from './backup-crypto.ts';
import { openPglite, pgliteTransaction, runPgTool } from './pg-tools.ts';
import { PERSONAL_DATA_KINDS, personalDataOf, type PersonalDataKind } from './personal-data.ts';
import { tableStats } from './table-stats.ts';

export const DUMP_FILES = { postgres: 'database.pgdump', pglite: 'database.pglite.tar.gz' } as const;

export const manifestSchema = z.object({
  format: z.literal('shop-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['postgres', 'pglite']),
    file: z.enum([DUMP_FILES.postgres, DUMP_FILES.pglite]),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    serverVersion: z.string(),
    migrations: z.array(z.string()),
  }),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int().nonnegative(), checksum: z.string() })),
  uploads: z.object({
    /** 'database': the originals are rows of the `uploads` table, inside the dump; 'disk': files under uploads/. */
    store: z.enum(['database', 'disk']),
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    files: z.array(z.object({ key: z.string(), size: z.number().int().nonnegative(), sha256: z.string() })),
  }),
  /** The kinds of personal data the file holds (ops/personal-data.ts); absent in older backups. */
  personalData: z.object({
    kinds: z.array(z.object({ kind: z.string(), description: z.string(), tables: z.array(z.string()) })),
    unclassified: z.array(z.string()),
    /** Mail bodies are sealed with a key that is not in the backup. */
    mailBodiesSealed: z.boolean(),
  }).optional(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export interface BackupOptions {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgBinDir'>;
  /** Where to write the backup; default `${DATA_DIR}/backups/shop-<time>.tar`. */
  out?: string | undefined;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Encrypt the file with this passphrase (scrypt + AES-256-GCM, ops/backup-crypto.ts). */
  passphrase?: string | undefined;
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} kB` : `${n} B`;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const summarize = (m: BackupManifest) =>
  `${m.tables.length} tables, ${m.tables.reduce((n, t) => n + t.rows, 0)} rows, ${m.uploads.count} images (${formatBytes(m.uploads.bytes)})`;

async function migrationsOf(tx: RawExecutor, tables: string[]): Promise<string[]> {
  if (!tables.includes('schema_migrations')) return [];
  return (await tx.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
}

/** PostgreSQL: pg_dump and the manifest read in one exported snapshot, so both describe the same moment. */
async function backupPostgres(opts: BackupOptions, databaseUrl: string, staging: string, log: (l: string) => void) {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    return await database.rawTransaction(async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const [snap] = await tx.query<{ id: string; version: string }>("SELECT pg_export_snapshot() AS id, current_setting('server_version') AS version");
      log(`backing up PostgreSQL ${snap!.version} with pg_dump (one snapshot: consistent while the shop runs)`);
      const dumped = runPgTool(
        'pg_dump',
        databaseUrl,
        ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snap!.id}`, `--file=${path.join(staging, DUMP_FILES.postgres)}`],
        opts.config.pgBinDir,
      );
      // Keep the snapshot's transaction open until pg_dump is done with it, whatever happens here.
      const read = (async () => {
        const tables = await tableStats(tx);
        const names = tables.map((t) => t.name);
        const files = names.includes('uploads')
          ? (await tx.query<{ key: string; size: number; sha256: string }>('SELECT key, size, sha256 FROM uploads ORDER BY key COLLATE "C"'))
            .map((f) => ({ key: f.key, size: Number(f.size), sha256: f.sha256 }))
          : [];
        return { tables, files, migrations: await migrationsOf(tx, names) };
      })();
      const [dump, contents] = await Promise.allSettled([dumped, read]);
      if (dump.status === 'rejected') throw dump.reason;
      if (contents.status === 'rejected') throw contents.reason;
      return { ...contents.value, kind: 'postgres' as const, serverVersion: snap!.version, store: 'database' as const };
    });
  } finally {
    await database.close();
  }
}

/** PGlite: its own dump of the data directory (the shop must be stopped: one process at a time). */
async function backupPglite(opts: BackupOptions, staging: string, log: (l: string) => void) {
  const pgliteDir = path.join(opts.config.dataDir, 'pglite');
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new Error(`No embedded database in ${pgliteDir}`);
  const release = claimPgliteDir(pgliteDir, 'a backup');
  try {
    const client = await openPglite(pgliteDir);
    try {
      const { tables, migrations, version } = await pgliteTransaction(client, async (tx) => {
        const stats = await tableStats(tx);
        const [v] = await tx.query<{ version: string }>("SELECT current_setting('server_version') AS version");
        return { tables: stats, migrations: await migrationsOf(tx, await listTables(tx)), version: v!.version };
      });
      log(`backing up the embedded database (PGlite, PostgreSQL ${version}) with its data-directory dump`);
      const dump = await client.dumpDataDir('gzip');
      await writeFile(path.join(staging, DUMP_FILES.pglite), Buffer.from(await dump.arrayBuffer()));
      const store = createLocalUploadStore(diskUploadsDir(opts.config.dataDir));
      const files = [];
      await mkdir(path.join(staging, 'uploads'), { recursive: true });
      for (const key of await store.list()) {
        const target = path.join(staging, 'uploads', key);
        await copyFile(path.join(diskUploadsDir(opts.config.dataDir), key), target);
        files.push({ key, size: (await stat(target)).size, sha256: await sha256OfFile(target) });
      }
      return { tables, files, migrations, kind: 'pglite' as const, serverVersion: version, store: 'disk' as const };
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/**
 * Writes one file holding the database and the uploaded originals, with a manifest of row counts,
 * checksums and image checksums: pg_dump (custom format) on PostgreSQL, where the images are rows
 * of the dump; PGlite's data-directory dump plus the image files on the embedded database.
 */
export async function createBackup(opts: BackupOptions): Promise<{ file: string; manifest: BackupManifest }> {
  const log = opts.log ?? (() => {});
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const file = path.resolve(opts.out ?? path.join(opts.config.dataDir, 'backups', `shop-${stamp}.tar${opts.passphrase ? '.enc' : ''}`));
  await mkdir(path.dirname(file), { recursive: true });
  const staging = `${file}.${newId()}.staging`;
  await mkdir(staging, { recursive: true });
  try {
    const contents = opts.config.databaseUrl
      ? await backupPostgres(opts, opts.config.databaseUrl, staging, log)
      : await backupPglite(opts, staging, log);
    const dumpFile = DUMP_FILES[contents.kind];
    const dumpPath = path.join(staging, dumpFile);
    const manifest: BackupManifest = {
      format: 'shop-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: {
        kind: contents.kind,
        file: dumpFile,
        size: (await stat(dumpPath)).size,
        sha256: await sha256OfFile(dumpPath),
        serverVersion: contents.serverVersion,
        migrations: contents.migrations,
      },
      tables: contents.tables,
      uploads: {
        store: contents.store,
        count: contents.files.length,
        bytes: contents.files.reduce((n, f) => n + f.size, 0),
        files: contents.files,
      },
      personalData: { ...personalDataOf(contents.tables), mailBodiesSealed: true },
    };
    log(`  ${summarize(manifest)}; database dump ${formatBytes(manifest.database.size)}`);
    log(`  personal data in this file: ${describePersonalData(manifest)}`);
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = ['manifest.json', dumpFile, ...(contents.store === 'disk' && contents.files.length ? ['uploads'] : [])];
    const partial = `${file}.partial`;
    await tar.create({ file: partial, cwd: staging, portable: true }, entries);
    if (opts.passphrase) {
      log('  encrypting (scrypt key derivation, AES-256-GCM)');
      await encryptFile(partial, `${file}.encrypting`, opts.passphrase);
      await rename(`${file}.encrypting`, file);
    } else {
      await rename(partial, file);
    }
    log(`wrote ${formatBytes((await stat(file)).size)}${opts.passphrase ? ' (encrypted)' : ''}`);
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(`${file}.partial`, { force: true });
    await rm(`${file}.encrypting`, { force: true });
  }
}

/** Reads and checks the manifest of an extracted backup. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) throw new Error('Not a shop backup: manifest.json is missing');
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`Not a shop backup this version can read: ${parsed.error.issues[0]?.message ?? 'bad manifest'}`);
  return parsed.data;
}

export { summarize as summarizeManifest };

/** "names and e-mail addresses (users, ...); ..." or "none". */
export function describePersonalData(m: BackupManifest): string {
  const p = m.personalData;
  if (!p) return 'not listed (a backup made before the list existed)';
  const parts = p.kinds.map((k) => `${PERSONAL_DATA_KINDS[k.kind as PersonalDataKind] ?? k.description} (${k.tables.join(', ')})`);
  if (p.unclassified.length) parts.push(`unclassified tables: ${p.unclassified.join(', ')}`);
  return parts.length ? parts.join('; ') : 'none';
}
