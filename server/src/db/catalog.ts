import type { RawExecutor } from './client.ts';

/** Tables of the shop's own data: every table in `public` but the migration bookkeeping. */
export async function listTables(db: RawExecutor): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname COLLATE "C"`,
  );
  return rows.map((r) => r.name);
}

export interface ColumnShape {
  name: string;
  type: string;
  notNull: boolean;
  /** Default expression, or the generation expression of a generated column, as PostgreSQL prints it. */
  default: string | null;
  /** '' plain, 's' stored generated. */
  generated: string;
  /** '' none, 'a' always, 'd' by default. */
  identity: string;
}

export interface TableShape {
  columns: ColumnShape[];
  /** Primary key and unique constraints: name → definition. */
  keys: Record<string, string>;
  /** Check constraints: name → definition. */
  checks: Record<string, string>;
  /** Foreign keys: definitions (PostgreSQL and Drizzle name them differently), sorted. */
  foreignKeys: string[];
  /** Indexes not backing a constraint: name → definition. */
  indexes: Record<string, string>;
  /** Per index: the INCLUDE columns (part of `indexes`' definitions; Drizzle cannot declare them). */
  includes: Record<string, string>;
}

/**
 * The shape of every table in `public` as PostgreSQL itself prints it (format_type, pg_get_expr,
 * pg_get_constraintdef, pg_get_indexdef), so two databases built by different means compare
 * exactly: the migrations against the Drizzle schema.
 */
export async function describeSchema(db: RawExecutor): Promise<Record<string, TableShape>> {
  const shapes: Record<string, TableShape> = {};
  const shapeOf = (table: string) =>
    (shapes[table] ??= { columns: [], keys: {}, checks: {}, foreignKeys: [], indexes: {}, includes: {} });
  for (const table of await listTables(db)) shapeOf(table);

  const columns = await db.query<{ table: string; name: string; type: string; not_null: boolean; def: string | null; generated: string; identity: string }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS def,
            a.attgenerated::text AS generated, a.attidentity::text AS identity
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  for (const c of columns) {
    shapeOf(c.table).columns.push({
      name: c.name, type: c.type, notNull: c.not_null, default: c.def, generated: c.generated, identity: c.identity,
    });
  }

  const constraints = await db.query<{ table: string; name: string; type: string; def: string }>(
    `SELECT c.relname AS table, con.conname AS name, con.contype::text AS type, pg_get_constraintdef(con.oid, true) AS def
     FROM pg_constraint con
     JOIN pg_class c ON c.oid = con.conrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND con.contype <> 't' -- constraint triggers are triggers (migrations own them)
     ORDER BY c.relname, con.conname`,
  );
  for (const k of constraints) {
    const shape = shapeOf(k.table);
    if (k.type === 'p' || k.type === 'u') shape.keys[k.name] = k.def;
    else if (k.type === 'c') shape.checks[k.name] = k.def;
    else if (k.type === 'f') shape.foreignKeys.push(k.def);
    else shape.keys[k.name] = `${k.type}: ${k.def}`;
  }
  for (const shape of Object.values(shapes)) shape.foreignKeys.sort();

  const indexes = await db.query<{ table: string; name: string; def: string }>(
    `SELECT t.relname AS table, i.relname AS name, pg_get_indexdef(i.oid) AS def
     FROM pg_index ix
     JOIN pg_class i ON i.oid = ix.indexrelid
     JOIN pg_class t ON t.oid = ix.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = ix.indexrelid)
     ORDER BY t.relname, i.relname`,
  );
  for (const i of indexes) {
    const include = / INCLUDE \(([^)]*)\)/.exec(i.def);
    shapeOf(i.table).indexes[i.name] = i.def.replace(/ INCLUDE \([^)]*\)/, '');
    if (include) shapeOf(i.table).includes[i.name] = include[1] ?? '';
  }
  return shapes;
}
