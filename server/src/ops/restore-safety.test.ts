// Backups that do not hand out accounts, encrypted backups, and restores that cannot destroy
// (issue 21 points 5 and 6), on the database under test.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { listTables } from '../db/catalog.ts';
import { migrate } from '../db/migrate.ts';
import { outbox } from '../db/schema.ts';
import { openMail } from '../lib/mailer.ts';
import { createUser, TEST_DB, testConfig, type TestApp } from '../test/test-app.ts';
import { createScratchSpace } from '../test/scratch-space.ts';
import { createBackup, manifestSchema, sha256OfFile } from './backup.ts';
import { ENCRYPTED_MAGIC } from './backup-crypto.ts';
import { restoreBackup } from './restore.ts';

const JWT_SECRET = 'restore-safety-secret-restore-safety-1';

interface Shop extends TestApp { dataDir: string; databaseUrl: string | undefined }

async function openShop(dataDir: string, databaseUrl: string | undefined): Promise<Shop> {
  const database = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 4 }) : await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await migrate(database);
  const config = testConfig({ DATA_DIR: dataDir, JWT_SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  return { app, database, config, dataDir, databaseUrl, close: async () => { await app.close(); await database.close(); } };
}

/** Every row of every table as text, by table (independent of the code under test). */
async function allRows(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of await listTables(database)) {
    out[name] = (await database.query<{ r: string }>(`SELECT t::text AS r FROM public."${name}" t`)).map((x) => x.r).sort();
  }
  return out;
}

async function rowsAt(dataDir: string, databaseUrl: string | undefined) {
  const database = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 2 }) : await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  try {
    return await allRows(database);
  } finally {
    await database.close();
  }
}

/** The backup file's database contents as text: the SQL of the pg_dump, or the bytes of PGlite's files. */
function decompressedDump(file: string, dir: string): string {
  const out = mkdtempSync(path.join(dir, 'x-'));
  tar.extract({ file, cwd: out, sync: true });
  if (existsSync(path.join(out, 'database.pgdump'))) {
    return execFileSync('pg_restore', ['-f', '-', path.join(out, 'database.pgdump')], { maxBuffer: 1 << 30 }).toString('latin1');
  }
  const inner = gunzipSync(readFileSync(path.join(out, 'database.pglite.tar.gz')));
  return inner.toString('latin1');
}

describe(`backups and restores on ${TEST_DB}: no account keys, encryption, nothing destroyed`, () => {
  const { tempDir, newDatabaseUrl, cleanUp } = createScratchSpace();
  let files: string;
  let source: { dataDir: string; databaseUrl: string | undefined };
  let plain: string;
  let token: string;
  const passphrase = 'correct horse battery staple';

  beforeAll(async () => {
    files = tempDir('restore-safety-files-');
    source = { dataDir: tempDir('restore-safety-src-'), databaseUrl: await newDatabaseUrl() };
    const shop = await openShop(source.dataDir, source.databaseUrl);
    try {
      const user = await createUser(shop, { name: 'Forgetful', email: 'forgetful@example.com' });
      const res = await shop.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: user.email } });
      expect(res.statusCode).toBe(200);
      await shop.app.ctx.background.flush();
      const [stored] = await shop.database.db.select().from(outbox);
      token = /reset-password\?token=([\w-]+)/.exec(openMail(stored!, shop.app.ctx.mailSealer).text)![1]!;
      expect(token.length).toBeGreaterThan(20);
    } finally {
      await shop.close();
    }
    plain = (await createBackup({ config: { ...source, pgBinDir: undefined }, out: path.join(files, 'plain.tar') })).file;
  }, 180_000);
  afterAll(async () => {
    await cleanUp();
  });

  it('after a forgot-password, neither any text of the database nor the backup file (decompressed) holds the reset token', async () => {
    const rows = await rowsAt(source.dataDir, source.databaseUrl);
    const text = JSON.stringify(rows);
    expect(text).toContain('Reset your password'); // the mail is there (subject)…
    expect(text).toContain('forgetful@example.com');
    expect(text).not.toContain(token); // …its link is not
    const dump = decompressedDump(plain, files);
    expect(dump).toContain('forgetful@example.com'); // the search does find plain text in the dump
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(encodeURIComponent(token));
  });

  it('the manifest lists the kinds of personal data the file holds', async () => {
    const out = mkdtempSync(path.join(files, 'm-'));
    await tar.extract({ file: plain, cwd: out });
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')));
    const kinds = Object.fromEntries(manifest.personalData!.kinds.map((k) => [k.kind, k.tables]));
    expect(kinds.identity).toEqual(expect.arrayContaining(['users', 'outbox']));
    expect(kinds.credentials).toEqual(expect.arrayContaining(['users', 'password_resets']));
    expect(kinds.mail).toEqual(['outbox']);
    expect(kinds.contact).toBeUndefined(); // no addresses, no orders in this shop
    expect(manifest.personalData!.unclassified).toEqual([]);
    expect(manifest.personalData!.mailBodiesSealed).toBe(true);
  });

  it('an encrypted backup: unreadable without the passphrase, a clear error for a wrong one, restores with the right one', async () => {
    const file = (await createBackup({ config: { ...source, pgBinDir: undefined }, out: path.join(files, 'secret.tar.enc'), passphrase })).file;
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC)).toBe(true);
    expect(bytes.toString('latin1')).not.toContain('shop-backup');
    expect(bytes.toString('latin1')).not.toContain('manifest.json');
    const target = { dataDir: tempDir('restore-safety-enc-'), databaseUrl: await newDatabaseUrl(), pgBinDir: undefined };
    await expect(restoreBackup({ config: target, file })).rejects.toThrow('This backup is encrypted: give its passphrase (BACKUP_PASSPHRASE or --passphrase-file <file>)');
    // What the restore prints: "the passphrase is right" only once the passphrase was checked.
    const printed: string[] = [];
    const log = (line: string) => printed.push(line);
    await expect(restoreBackup({ config: target, file, passphrase: 'wrong', log })).rejects.toThrow('Wrong passphrase for this encrypted backup');
    expect(printed.join('\n')).not.toContain('passphrase is right');
    expect(printed.join('\n')).not.toContain('decrypting');
    // A changed byte in the middle: the authentication fails, nothing is restored.
    const altered = path.join(files, 'altered.tar.enc');
    const copy = Buffer.from(bytes);
    const middle = Math.floor(copy.length / 2);
    copy[middle] = copy[middle]! ^ 0x01;
    writeFileSync(altered, copy);
    await expect(restoreBackup({ config: target, file: altered, passphrase })).rejects.toThrow(/damaged|does not authenticate/);
    expect(readdirSync(target.dataDir)).toEqual([]);
    await restoreBackup({ config: target, file, passphrase, log });
    expect(printed).toContain('  decrypting (the passphrase is right; the whole file is authenticated before anything is extracted)');
    expect(await rowsAt(target.dataDir, target.databaseUrl)).toEqual(await rowsAt(source.dataDir, source.databaseUrl));
  }, 180_000);

  describe('a failed restore with --force into a shop with data leaves every row in place and no scratch folder', () => {
    let target: { dataDir: string; databaseUrl: string | undefined; pgBinDir: string | undefined };
    let before: Record<string, string[]>;
    let entriesBefore: string[];

    beforeAll(async () => {
      target = { dataDir: tempDir('restore-safety-dst-'), databaseUrl: await newDatabaseUrl(), pgBinDir: undefined };
      const shop = await openShop(target.dataDir, target.databaseUrl);
      try {
        await createUser(shop, { name: 'Existing Customer', email: 'existing@example.com' });
        await createUser(shop, { name: 'Another One', email: 'another@example.com' });
      } finally {
        await shop.close();
      }
      before = await rowsAt(target.dataDir, target.databaseUrl);
      expect(before.users).toHaveLength(2);
      entriesBefore = readdirSync(target.dataDir).sort();
    }, 120_000);

    const expectUntouched = async () => {
      expect(await rowsAt(target.dataDir, target.databaseUrl)).toEqual(before);
      expect(readdirSync(target.dataDir).sort()).toEqual(entriesBefore);
    };

    /** A copy of the plain backup with its manifest (and optionally dump) changed. */
    async function rewritten(name: string, change: (dir: string, manifest: Record<string, unknown> & { tables: Array<{ name: string; checksum: string }>; database: { file: string; sha256: string; size: number } }) => Promise<void> | void) {
      const dir = mkdtempSync(path.join(files, `${name}-`));
      await tar.extract({ file: plain, cwd: dir });
      const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      await change(dir, manifest);
      writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
      const out = path.join(files, `${name}.tar`);
      await tar.create({ file: out, cwd: dir }, readdirSync(dir));
      return out;
    }

    it('a truncated archive', async () => {
      const file = path.join(files, 'truncated.tar');
      copyFileSync(plain, file);
      truncateSync(file, Math.floor(statSync(file).size / 2));
      await expect(restoreBackup({ config: target, file, force: true })).rejects.toThrow(/The backup is damaged/);
      await expectUntouched();
    }, 120_000);

    it('a wrong checksum in the manifest (found only after loading the dump)', async () => {
      const file = await rewritten('wrong-checksum', (_dir, m) => {
        const users = m.tables.find((t) => t.name === 'users')!;
        users.checksum = '0'.repeat(32);
      });
      const err = await restoreBackup({ config: target, file, force: true }).then(() => null, (e: unknown) => e as Error);
      expect(err?.message).toContain('table users has other contents');
      await expectUntouched();
    }, 120_000);

    it(TEST_DB === 'postgres' ? 'a failing pg_restore' : 'a dump that fails to load', async () => {
      let file = plain;
      if (TEST_DB === 'postgres') {
        const bin = tempDir('restore-safety-bin-');
        writeFileSync(path.join(bin, 'pg_restore'), '#!/bin/sh\necho "pg_restore: error: simulated failure" >&2\nexit 1\n');
        chmodSync(path.join(bin, 'pg_restore'), 0o755);
        symlinkSync(execFileSync('sh', ['-c', 'command -v psql']).toString().trim(), path.join(bin, 'psql'));
        await expect(restoreBackup({ config: { ...target, pgBinDir: bin }, file, force: true })).rejects.toThrow('pg_restore failed (exit code 1): pg_restore: error: simulated failure');
        await expectUntouched();
        // …and a failure inside the loading transaction, after the old schema was dropped in it: the
        // manifest names a table the dump does not have.
        file = await rewritten('missing-table', (_dir, m) => {
          m.tables.push({ name: 'no_such_table', checksum: 'd41d8cd98f00b204e9800998ecf8427e', rows: 0 } as never);
        });
        const err = await restoreBackup({ config: target, file, force: true }).then(() => null, (e: unknown) => e as Error);
        expect(err?.message).toContain('The restore was rolled back, the database is unchanged');
        expect(err?.message).toContain('no_such_table');
      } else {
        file = await rewritten('bad-dump', (dir, m) => {
          const dump = path.join(dir, m.database.file);
          writeFileSync(dump, gzipSync(Buffer.from('not the data directory of a database')));
          m.database.size = statSync(dump).size;
        });
        const dir = mkdtempSync(path.join(files, 'sha-'));
        await tar.extract({ file, cwd: dir });
        const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
        m.database.sha256 = await sha256OfFile(path.join(dir, m.database.file));
        writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
        await tar.create({ file, cwd: dir }, readdirSync(dir));
        await expect(restoreBackup({ config: target, file, force: true })).rejects.toThrow();
      }
      await expectUntouched();
    }, 180_000);

    it.skipIf(TEST_DB === 'postgres')('a truncated compressed dump whose checksum matches a rewritten manifest: a clear error, not a crash', async () => {
      const file = await rewritten('truncated-dump', async (dir, m) => {
        const dump = path.join(dir, m.database.file);
        truncateSync(dump, Math.floor(statSync(dump).size / 2));
        m.database.size = statSync(dump).size;
        m.database.sha256 = await sha256OfFile(dump);
      });
      // PGlite's own gunzip would have ended the process with an uncaught exception here.
      await expect(restoreBackup({ config: target, file, force: true })).rejects.toThrow('The backup is damaged: its database dump is truncated or corrupt');
      await expectUntouched();
    }, 120_000);

    it('a good backup restores with --force: the target then holds exactly the source rows, and no scratch folder', async () => {
      await restoreBackup({ config: target, file: plain, force: true });
      expect(await rowsAt(target.dataDir, target.databaseUrl)).toEqual(await rowsAt(source.dataDir, source.databaseUrl));
      expect(readdirSync(target.dataDir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
      mkdirSync(path.join(target.dataDir, '.restore-left-by-a-killed-run'));
      await restoreBackup({ config: target, file: plain, force: true });
      expect(readdirSync(target.dataDir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
    }, 180_000);
  });
});
