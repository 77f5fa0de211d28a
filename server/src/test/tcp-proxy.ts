import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test (or a benchmark) closes and reopens to cut a service off:
 * `close()` stops listening and resets every connection through it (connections are then refused,
 * as when the server is down); `open()` listens again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  open(): Promise<void>;
  close(): Promise<void>;
  /** Connections made through the proxy since it was created. */
  readonly connections: number;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let boundPort = port;
  let connections = 0;
  const listen = () => new Promise<void>((resolve, reject) => {
    const srv = createServer((client) => {
      connections += 1;
      const upstream = createConnection(target);
      sockets.add(client);
      sockets.add(upstream);
      const drop = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    srv.once('error', reject);
    srv.listen(boundPort, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr && typeof addr === 'object') boundPort = addr.port;
      server = srv;
      resolve();
    });
  });
  await listen();
  return {
    get port() { return boundPort; },
    get connections() { return connections; },
    open: async () => { if (!server) await listen(); },
    close: async () => {
      const srv = server;
      server = undefined;
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
      if (srv) await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}
