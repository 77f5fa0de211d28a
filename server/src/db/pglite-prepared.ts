import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/** At most this many statements are kept prepared in a PGlite database; later new texts run unprepared. */
export const MAX_PGLITE_PREPARED = 200;

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The statement's RowDescription from its Describe (none for a statement that returns no rows). */
  rowDescription: BackendMessage | undefined;
}

/**
 * Makes every parameterised `query()` on a PGlite database (what Drizzle sends outside
 * transactions) a named prepared statement, as node-postgres does on PostgreSQL (client.ts):
 * PGlite's own `query()` parses, describes and plans the text on every call in six calls into
 * the wasm backend; here a text is parsed and described once, and each call is one
 * bind + execute round, whose plan PostgreSQL's plan cache keeps once a generic plan is as cheap
 * as the custom ones. The result's columns come from that first Describe, kept with the statement,
 * instead of a Describe of every portal (which PostgreSQL builds and PGlite's JavaScript parses
 * again on each call: a column's name and type per column). A prepared statement's result columns
 * cannot change under it: PostgreSQL fails the execute ("cached plan must not change result type")
 * either way. Same results, parsers and errors as `query()`; it takes the same locks, so
 * it never interleaves with a transaction or another query. Queries without parameters, with
 * blobs or explicit parameter types, and new texts past MAX_PGLITE_PREPARED take the usual path.
 */
export function prepareRepeatedPgliteQueries(client: PGlite): void {
  const prepared = new Map<string, Prepared>();
  const original = client.query.bind(client);
  const run = async <T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> => {
    let statement = prepared.get(text);
    if (!statement) {
      const name = `p${prepared.size + 1}`;
      const described = await client.execProtocol(
        concat([protocol.serialize.parse({ name, text, types: [] }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
        { syncToFs: false },
      );
      const params = described.messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
      const rowDescription = described.messages.find((m) => m.name === 'rowDescription');
      statement = { name, paramTypes: params?.dataTypeIDs ?? [], rowDescription };
      prepared.set(text, statement);
    }
    const types = statement.paramTypes;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialize = options?.serializers?.[types[i] ?? 0] ?? client.serializers[types[i] ?? 0];
      return serialize ? serialize(v) : String(v);
    });
    const { messages } = await client.execProtocol(concat([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]));
    if (statement.rowDescription) messages.unshift(statement.rowDescription);
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  };
  (client as { query: PGlite['query'] }).query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!params?.length || options?.blob || options?.paramTypes || (!prepared.has(text) && prepared.size >= MAX_PGLITE_PREPARED)) {
      return original<T>(text, params, options);
    }
    await client._checkReady();
    return client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run<T>(text, params, options)));
  };
}
