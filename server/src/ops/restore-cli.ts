// `npm run restore -- <file> [--force]`: restores a backup into the database and data directory the
// environment names (DATABASE_URL, DATA_DIR), which must be empty unless --force is given.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { restoreBackup } from './restore.ts';

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.info('Usage: npm run restore -- <backup file> [--force]   (same DATABASE_URL / DATA_DIR as the shop)');
    if (!values.help) process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  await restoreBackup({ config, file: positionals[0]!, force: values.force, log: (line) => console.info(line) });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `Restore failed: ${err.message}` : err);
  process.exit(1);
});
