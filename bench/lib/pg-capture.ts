/**
 * A TCP proxy in front of PostgreSQL that records every statement a client runs through it, as
 * sent on the wire (protocol 3): simple queries ('Q': BEGIN, COMMIT, ...) and each execution of a
 * prepared or unnamed statement ('P' parse, 'B' bind with its parameters as text, 'E' execute).
 * Nothing is changed on the way: the client (the shop's pool) sees its database as usual.
 * Used by checkout-replay.ts to capture the statements one checkout really runs.
 */
import net from 'node:net';

export interface CapturedStatement {
  /** When the proxy saw it (performance.now() of this process). */
  at: number;
  /** The proxied connection it ran on (1, 2, ...). */
  connection: number;
  text: string;
  /** Parameters as sent (text format); null for a simple query. */
  params: Array<string | null> | null;
}

export interface PgCapture {
  /** host:port to give the client instead of PostgreSQL's. */
  port: number;
  statements: CapturedStatement[];
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/** Reads the frontend messages of one connection as they come in pieces. */
function frontendParser(connection: number, out: CapturedStatement[]) {
  let buf: Buffer = Buffer.alloc(0);
  let started = false;
  const prepared = new Map<string, string>(); // statement name -> text ('' = the unnamed statement)
  let bound: { text: string; params: Array<string | null> } | null = null;
  const cstring = (b: Buffer, at: number): [string, number] => {
    const end = b.indexOf(0, at);
    return [b.toString('utf8', at, end), end + 1];
  };
  const message = (type: string, body: Buffer) => {
    if (type === 'Q') {
      out.push({ at: performance.now(), connection, text: cstring(body, 0)[0], params: null });
    } else if (type === 'P') {
      const [name, next] = cstring(body, 0);
      prepared.set(name, cstring(body, next)[0]);
    } else if (type === 'B') {
      let at = cstring(body, 0)[1];
      const [stmt, next] = cstring(body, at);
      at = next;
      const formats = body.readInt16BE(at);
      at += 2 + 2 * formats;
      const n = body.readInt16BE(at);
      at += 2;
      const params: Array<string | null> = [];
      for (let i = 0; i < n; i += 1) {
        const len = body.readInt32BE(at);
        at += 4;
        if (len < 0) params.push(null);
        else {
          params.push(body.toString('utf8', at, at + len));
          at += len;
        }
      }
      bound = { text: prepared.get(stmt) ?? `-- unknown statement ${stmt}`, params };
    } else if (type === 'E' && bound) {
      out.push({ at: performance.now(), connection, ...bound });
    }
  };
  return (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (!started) {
        if (buf.length < 8) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        const code = buf.readInt32BE(4);
        // An SSL or GSS request is answered before the startup message; the startup message starts the typed ones.
        if (code !== SSL_REQUEST && code !== GSS_REQUEST) started = true;
        buf = buf.subarray(len);
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readInt32BE(1);
      if (buf.length < 1 + len) return;
      message(String.fromCharCode(buf[0]!), buf.subarray(5, 1 + len));
      buf = buf.subarray(1 + len);
    }
  };
}

export async function startPgCapture(upstream: { host: string; port: number }): Promise<PgCapture> {
  const statements: CapturedStatement[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    const id = (connections += 1);
    const server = net.connect(upstream.port, upstream.host);
    sockets.add(client);
    sockets.add(server);
    const parse = frontendParser(id, statements);
    client.on('data', (chunk: Buffer) => {
      try { parse(chunk); } catch { /* a message this parser does not know: the bytes still pass */ }
    });
    client.pipe(server);
    server.pipe(client);
    const end = () => { client.destroy(); server.destroy(); sockets.delete(client); sockets.delete(server); };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    statements,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
