import type { Column } from 'drizzle-orm';

/**
 * Hand-written SQL (the checkout path's combined statements) read back as Drizzle would read it.
 * `selectList` names each column `<prefix><column>` in the select list; `readColumns` maps such a
 * raw row (db.execute: timestamps as text on both drivers, numerics as text) through each column's
 * own driver mapping, so the objects equal what a Drizzle select of the same columns returns.
 */
export function selectList(columns: Record<string, Column>, tableAlias: string, prefix: string): string {
  return Object.values(columns).map((c) => `${tableAlias}."${c.name}" as "${prefix}${c.name}"`).join(', ');
}

/** A json/jsonb value of a db.execute row (row_to_json, json_agg): parsed when the driver gave it as text. */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function readColumns<T>(columns: Record<string, Column>, row: Record<string, unknown>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const key in columns) {
    const column = columns[key]!;
    const value = row[prefix + column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T;
}
