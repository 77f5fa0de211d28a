import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security-headers.ts';

const OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://www.paypal.com'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      upgradeInsecureRequests: [],
    },
  },
  crossOriginEmbedderPolicy: false,
};

async function headersOf(register: (app: ReturnType<typeof Fastify>) => Promise<unknown>, url = '/page') {
  const app = Fastify();
  await register(app);
  app.get('/page', async () => ({ ok: true }));
  app.get('/own', { config: { helmet: { frameguard: { action: 'deny' } } } as never }, async () => ({ ok: true }));
  const res = await app.inject({ method: 'GET', url });
  await app.close();
  const { date: _date, ...rest } = res.headers;
  return rest;
}

describe('security headers built once', () => {
  it('sends exactly the headers @fastify/helmet sends with the same options', async () => {
    const once = await headersOf((app) => registerSecurityHeaders(app, OPTIONS));
    const plugin = await headersOf((app) => app.register(fastifyHelmet, OPTIONS));
    expect(once['content-security-policy']).toContain("script-src 'self' https://www.paypal.com;");
    expect(once['content-security-policy']).toContain("connect-src 'self' ws: wss:");
    expect(once['x-frame-options']).toBe('SAMEORIGIN');
    expect(once).toEqual(plugin);
  });

  it('leaves a route with its own helmet options to the plugin', async () => {
    const once = await headersOf((app) => registerSecurityHeaders(app, OPTIONS), '/own');
    const plugin = await headersOf((app) => app.register(fastifyHelmet, OPTIONS), '/own');
    expect(once['x-frame-options']).toBe('DENY');
    expect(once).toEqual(plugin);
  });
});
