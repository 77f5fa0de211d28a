import type { RawExecutor } from '../db/client.ts';
import { listTables } from '../db/catalog.ts';

export interface TableStat {
  name: string;
  rows: number;
  /** md5 over the sorted md5s of every row's text form: equal iff the rows are equal. */
  checksum: string;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Row count and checksum of every table in `public` (whatever tables exist, so new ones are
 * covered without a list to keep up to date). Run it inside a transaction: the session settings
 * that shape a row's text (time zone, float digits, bytea format) are fixed for it with SET LOCAL,
 * so two databases holding the same rows give the same checksums.
 */
export async function tableStats(tx: RawExecutor): Promise<TableStat[]> {
  await tx.exec(
    "SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, MDY'; SET LOCAL IntervalStyle = 'postgres'; " +
      "SET LOCAL extra_float_digits = 1; SET LOCAL bytea_output = 'hex'",
  );
  const stats: TableStat[] = [];
  for (const name of await listTables(tx)) {
    const [row] = await tx.query<{ rows: string; checksum: string }>(
      `SELECT count(*)::text AS rows,
              md5(coalesce(string_agg(h, '' ORDER BY h COLLATE "C"), '')) AS checksum
       FROM (SELECT md5(t::text) AS h FROM public.${ident(name)} t) rows`,
    );
    stats.push({ name, rows: Number(row?.rows ?? 0), checksum: row?.checksum ?? '' });
  }
  return stats;
}

/** The differences between two sets of table stats, as readable lines (empty when equal). */
export function compareTableStats(expected: TableStat[], actual: TableStat[]): string[] {
  const diffs: string[] = [];
  const byName = new Map(actual.map((s) => [s.name, s]));
  for (const e of expected) {
    const a = byName.get(e.name);
    if (!a) diffs.push(`table ${e.name} is missing`);
    else if (a.rows !== e.rows) diffs.push(`table ${e.name} has ${a.rows} rows, expected ${e.rows}`);
    else if (a.checksum !== e.checksum) diffs.push(`table ${e.name} has other contents (checksum ${a.checksum}, expected ${e.checksum})`);
    byName.delete(e.name);
  }
  for (const name of byName.keys()) diffs.push(`table ${name} was not in the backup`);
  return diffs;
}
