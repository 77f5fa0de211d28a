/**
 * The benchmark's shop (./server.ts) as a child process: started over a generated catalogue, asked
 * for its resident set size over IPC, stopped by disconnecting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export class ServerProcess {
  private rssWaiters = new Map<number, (rss: number) => void>();
  private nextId = 0;
  constructor(private readonly child: ChildProcess) {
    child.on('message', (msg: { type: string; id?: number; rss?: number }) => {
      if (msg.type === 'rss' && msg.id !== undefined) this.rssWaiters.get(msg.id)?.(msg.rss ?? 0);
    });
  }
  static async start(options: { databaseUrl?: string; products: number; workers?: number; redisUrl?: string; webDist?: string; sessions?: number }): Promise<{ server: ServerProcess; port: number; generateMs: number; slugs: string[]; accessTokens: string[] }> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'server.ts')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    });
    const server = new ServerProcess(child);
    const ready = await new Promise<{ port: number; generateMs: number; samples: { slugs: string[]; accessTokens?: string[] } }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
      child.on('message', (msg: { type: string }) => {
        if (msg.type === 'ready') resolve(msg as never);
      });
    });
    return { server, port: ready.port, generateMs: ready.generateMs, slugs: ready.samples.slugs, accessTokens: ready.samples.accessTokens ?? [] };
  }
  rss(): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(0), 2000);
      this.rssWaiters.set(id, (rss) => {
        clearTimeout(timer);
        this.rssWaiters.delete(id);
        resolve(rss);
      });
      this.child.send({ type: 'rss', id });
    });
  }
  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
