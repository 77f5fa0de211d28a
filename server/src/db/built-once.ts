/**
 * Statements built with Drizzle once per database handle and key, then only executed with each
 * request's values: building a query costs more JavaScript per request than running a small one.
 * Keys name a statement's shape, never a value; when a handle holds `max` of them the set starts
 * over (a bound against shapes that only vary in rare ways).
 */
export function builtOnce<K, T>(max = Infinity) {
  const byHandle = new WeakMap<object, Map<K, T>>();
  return (db: object, key: K, build: () => T): T => {
    let built = byHandle.get(db);
    if (!built) {
      built = new Map();
      byHandle.set(db, built);
    }
    let statement = built.get(key);
    if (statement === undefined) {
      if (built.size >= max) built.clear();
      statement = build();
      built.set(key, statement);
    }
    return statement;
  };
}
