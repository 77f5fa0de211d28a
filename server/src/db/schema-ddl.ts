import { is, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable, type AnyPgColumn } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

function inlineValue(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return literal(value.toISOString());
  if (typeof value === 'string') return literal(value);
  return literal(JSON.stringify(value));
}

/** A Drizzle SQL fragment as DDL text: column references unqualified, parameters inlined. */
export function renderSql(fragment: SQL): string {
  const { sql, params } = dialect.sqlToQuery(fragment, 'indexes');
  return sql.replace(/\$(\d+)/g, (_, n: string) => inlineValue(params[Number(n) - 1]));
}

function renderDefault(column: AnyPgColumn): string {
  const value = column.default;
  if (is(value, SQL)) return renderSql(value);
  if (Array.isArray(value) && column.getSQLType().endsWith('[]')) {
    return literal(`{${value.map((v) => JSON.stringify(v)).join(',')}}`);
  }
  return inlineValue(value);
}

function columnDdl(column: AnyPgColumn): string {
  const parts = [ident(column.name), column.getSQLType()];
  if (column.generated) {
    const as = column.generated.as;
    const expr = is(as, SQL) ? renderSql(as) : typeof as === 'function' ? renderSql((as as () => SQL)()) : inlineValue(as);
    parts.push(`GENERATED ALWAYS AS (${expr}) STORED`);
  } else if (column.generatedIdentity) {
    parts.push(`GENERATED ${column.generatedIdentity.type === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`);
  } else if (column.default !== undefined) {
    parts.push(`DEFAULT ${renderDefault(column)}`);
  }
  if (column.primary) parts.push('PRIMARY KEY');
  else if (column.notNull) parts.push('NOT NULL');
  return parts.join(' ');
}

/**
 * The DDL a Drizzle schema declares (tables, columns, keys, checks, indexes, foreign keys), written
 * the way PostgreSQL would name things when left to its defaults. Applied to an empty database it
 * gives the catalog the schema describes, to compare with what the migrations built.
 */
export function ddlFromDrizzle(tables: PgTable[]): string[] {
  const statements: string[] = [];
  const foreignKeys: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    const name = ident(config.name);
    const lines = config.columns.map(columnDdl);
    for (const column of config.columns) {
      if (column.isUnique) {
        const nulls = column.uniqueType === 'not distinct' ? ' NULLS NOT DISTINCT' : '';
        lines.push(`CONSTRAINT ${ident(column.uniqueName ?? `${config.name}_${column.name}_key`)} UNIQUE${nulls} (${ident(column.name)})`);
      }
    }
    for (const pk of config.primaryKeys) {
      lines.push(`CONSTRAINT ${ident(pk.getName())} PRIMARY KEY (${pk.columns.map((c) => ident(c.name)).join(', ')})`);
    }
    for (const uc of config.uniqueConstraints) {
      const nulls = uc.nullsNotDistinct ? ' NULLS NOT DISTINCT' : '';
      lines.push(`CONSTRAINT ${ident(uc.getName() ?? '')} UNIQUE${nulls} (${uc.columns.map((c) => ident(c.name)).join(', ')})`);
    }
    for (const check of config.checks) lines.push(`CONSTRAINT ${ident(check.name)} CHECK (${renderSql(check.value)})`);
    statements.push(`CREATE TABLE ${name} (\n  ${lines.join(',\n  ')}\n)`);

    for (const index of config.indexes) {
      const c = index.config;
      if (!c.name) throw new Error(`an index on ${config.name} has no name: name it as its migration does`);
      const elements = c.columns.map((col) => {
        if (is(col, SQL)) return renderSql(col);
        const indexed = col as { name?: string; indexConfig?: { order?: string; nulls?: string; opClass?: string } };
        const opts = indexed.indexConfig ?? {};
        // Drizzle records nulls 'last' (its default) even after desc(), where PostgreSQL's default is
        // NULLS FIRST, so an explicit nullsLast() on a descending column cannot be told apart from
        // none: desc() reads as plain DESC, and only nullsFirst() on an ascending column is written.
        const desc = opts.order === 'desc';
        return [
          ident(indexed.name ?? ''),
          opts.opClass ?? '',
          desc ? 'DESC' : '',
          !desc && opts.nulls === 'first' ? 'NULLS FIRST' : '',
        ].filter(Boolean).join(' ');
      });
      const withClause = c.with && Object.keys(c.with).length
        ? ` WITH (${Object.entries(c.with).map(([k, v]) => `${k} = ${inlineValue(v)}`).join(', ')})`
        : '';
      const where = c.where ? ` WHERE ${renderSql(c.where)}` : '';
      statements.push(
        `CREATE ${c.unique ? 'UNIQUE ' : ''}INDEX ${ident(c.name)} ON ${name} USING ${c.method ?? 'btree'} (${elements.join(', ')})${withClause}${where}`,
      );
    }
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const target = getTableConfig(ref.foreignTable).name;
      foreignKeys.push(
        `ALTER TABLE ${name} ADD CONSTRAINT ${ident(fk.getName())} FOREIGN KEY (${ref.columns.map((c) => ident(c.name)).join(', ')}) ` +
          `REFERENCES ${ident(target)} (${ref.foreignColumns.map((c) => ident(c.name)).join(', ')})` +
          ` ON DELETE ${(fk.onDelete ?? 'no action').toUpperCase()} ON UPDATE ${(fk.onUpdate ?? 'no action').toUpperCase()}`,
      );
    }
  }
  return [...statements, ...foreignKeys];
}

/** Every table the Drizzle schema module exports. */
export function tablesOf(schema: Record<string, unknown>): PgTable[] {
  return Object.values(schema).filter((v): v is PgTable => is(v, PgTable));
}
