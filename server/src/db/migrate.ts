import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './client.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
// Arbitrary constant so that several app instances starting together migrate one at a time.
const LOCK_KEY = 727_274_001;

export function listMigrations(dir = MIGRATIONS_DIR): Array<{ name: string; sql: string }> {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name), 'utf8') }));
}

/** Applies every migration not yet recorded, each in its own transaction. Safe to run on every start. */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    await database.rawTransaction(async (tx) => {
      if (database.kind === 'postgres') await tx.exec(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [m.name]);
      if (done.length) return;
      try {
        await tx.exec(m.sql);
      } catch (err) {
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    });
  }
  return applied;
}
