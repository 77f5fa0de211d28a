// `npm run backup [-- --out <file>] [--encrypt [--passphrase-file <file>]]`: one file with the
// database and the uploaded originals, for the shop configured by the environment (DATABASE_URL,
// DATA_DIR). --encrypt seals it with a passphrase (BACKUP_PASSPHRASE or the file's first line).
// The file's path is the last line.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createBackup } from './backup.ts';
import { readPassphrase } from './backup-crypto.ts';

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' }, encrypt: { type: 'boolean' }, 'passphrase-file': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.info('Usage: npm run backup [-- --out <file>] [--encrypt [--passphrase-file <file>]]   (same DATABASE_URL / DATA_DIR as the shop;');
    console.info('       --encrypt takes the passphrase from BACKUP_PASSPHRASE or the first line of --passphrase-file)');
    return;
  }
  const config = loadConfig();
  let passphrase: string | undefined;
  if (values.encrypt || values['passphrase-file']) {
    passphrase = await readPassphrase({ file: values['passphrase-file'], env: config.backupPassphrase });
    if (!passphrase) throw new Error('--encrypt needs a passphrase: set BACKUP_PASSPHRASE or pass --passphrase-file <file>');
  }
  const { file } = await createBackup({ config, out: values.out, passphrase, log: (line) => console.info(line) });
  console.info(file);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `Backup failed: ${err.message}` : err);
  process.exit(1);
});
