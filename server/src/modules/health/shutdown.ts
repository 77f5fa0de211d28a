import type { FastifyInstance } from 'fastify';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * While draining, every response asks the client (or the balancer) to close its keep-alive
 * connection, so that when the server finally closes, no idle connection is left for a balancer
 * to send one more request on.
 */
export function registerDrainHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (app.ctx.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
}

export interface DrainOptions {
  /** How long to keep serving after /api/live and /api/ready turn 503, so the balancer notices (0: no wait). */
  drainSeconds: number;
}

/**
 * Stops an instance without failing a request: /api/live (the balancer's check) and /api/ready
 * answer 503 at once, traffic keeps being served for `drainSeconds` while the balancer's health
 * checks notice, then the `ctx.onDrain` hooks run (chat sockets close with a reconnect code), then
 * the server stops accepting connections and waits for in-flight requests, and the app's onClose
 * hooks run.
 */
export async function drainAndClose(app: FastifyInstance, opts: DrainOptions): Promise<void> {
  const { ctx } = app;
  ctx.lifecycle.draining = true;
  app.log.info({ drainSeconds: opts.drainSeconds }, 'draining: /api/live answers 503 until the balancer stops sending traffic');
  if (opts.drainSeconds > 0) await sleep(opts.drainSeconds * 1000);
  for (const hook of ctx.onDrain) {
    try {
      await hook();
    } catch (err) {
      app.log.error({ err }, 'drain hook failed');
    }
  }
  app.log.info('drained: no new connections, finishing in-flight requests');
  await app.close();
}
