// `npm run restore -- <file> [--force] [--passphrase-file <file>]`: restores a backup into the
// database and data directory the environment names (DATABASE_URL, DATA_DIR), which must be empty
// unless --force is given. An encrypted backup is recognised; its passphrase comes from
// BACKUP_PASSPHRASE or the first line of --passphrase-file. Nothing changes unless the restored
// copy matches the backup's manifest.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { readPassphrase } from './backup-crypto.ts';
import { restoreBackup } from './restore.ts';

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean' }, 'passphrase-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.info('Usage: npm run restore -- <backup file> [--force] [--passphrase-file <file>]   (same DATABASE_URL / DATA_DIR as the shop;');
    console.info('       an encrypted backup takes its passphrase from BACKUP_PASSPHRASE or the first line of --passphrase-file)');
    if (!values.help) process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const passphrase = await readPassphrase({ file: values['passphrase-file'], env: config.backupPassphrase });
  await restoreBackup({ config, file: positionals[0]!, force: values.force, passphrase, log: (line) => console.info(line) });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `Restore failed: ${err.message}` : err);
  process.exit(1);
});
