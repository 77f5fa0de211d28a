// `npm run backup [-- --out <file>]`: one file with the database and the uploaded originals, for the
// shop configured by the environment (DATABASE_URL, DATA_DIR). The file's path is the last line.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createBackup } from './backup.ts';

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.info('Usage: npm run backup [-- --out <file>]   (same DATABASE_URL / DATA_DIR as the shop)');
    return;
  }
  const config = loadConfig();
  const { file } = await createBackup({ config, out: values.out, log: (line) => console.info(line) });
  console.info(file);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `Backup failed: ${err.message}` : err);
  process.exit(1);
});
