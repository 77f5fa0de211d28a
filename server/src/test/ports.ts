import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (for child servers started by tests and benchmarks). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * `count` consecutive TCP ports on 127.0.0.1 that were all free a moment ago (for a fleet whose
 * instances take the ports after the balancer's). Tries random bases in the unprivileged range
 * below the kernel's ephemeral range, so tests never collide with a shop running on its usual port.
 */
export async function freePortRange(count: number): Promise<number> {
  const canBind = (port: number) => new Promise<boolean>((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = await canBind(base + i);
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
