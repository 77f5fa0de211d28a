import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { openTestDatabase, TEST_DB, testConfig } from '../../test/test-app.ts';
import { drainAndClose } from './shutdown.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`graceful shutdown for a load balancer on ${TEST_DB}`, () => {
  let app: App;
  let base: string;
  let cleanup: () => Promise<void>;
  const events: string[] = [];
  let releaseSlow: () => void = () => {};

  beforeAll(async () => {
    const opened = await openTestDatabase();
    cleanup = opened.cleanup;
    app = await buildApp({ config: testConfig(), database: opened.database, logger: false });
    // A request that is still running when the instance is told to stop.
    app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
      events.push('slow request started');
      await new Promise<void>((resolve) => { releaseSlow = resolve; });
      events.push('slow request answered');
      return { done: true };
    });
    app.ctx.onDrain.push(() => {
      events.push(`onDrain (server listening: ${app.server.listening})`);
    });
    app.ctx.onDrain.push(() => {
      throw new Error('a failing hook does not stop the shutdown');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    await cleanup();
  });

  it('answers live and ready before, 503 on /api/live and /api/ready while draining but still serves, runs onDrain, finishes in-flight requests, then refuses connections', async () => {
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect((await fetch(`${base}/api/live`)).status).toBe(200);

    const slow = fetch(`${base}/api/test/slow`);
    while (!events.includes('slow request started')) await sleep(10);

    const started = Date.now();
    const closed = drainAndClose(app, { drainSeconds: 0.6 }).then(() => events.push('closed'));

    const draining = await fetch(`${base}/api/ready`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ message: 'Shutting down', code: 'UNAVAILABLE' });
    expect(draining.headers.get('connection')).toBe('close');
    // The load balancer's check (deploy/haproxy.cfg): the instance leaves the rotation.
    const live = await fetch(`${base}/api/live`);
    expect(live.status).toBe(503);
    expect(await live.json()).toEqual({ message: 'Shutting down', code: 'UNAVAILABLE' });
    // Traffic the balancer still sends while it notices is served normally.
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    expect(events).toEqual(['slow request started']);

    while (!events.some((e) => e.startsWith('onDrain'))) await sleep(10);
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    expect(events).toEqual(['slow request started', 'onDrain (server listening: true)']);

    await sleep(100);
    expect(events).not.toContain('closed'); // still waiting for the in-flight request
    releaseSlow();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    expect(events).toEqual(['slow request started', 'onDrain (server listening: true)', 'slow request answered', 'closed']);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow('fetch failed');
  });
});
