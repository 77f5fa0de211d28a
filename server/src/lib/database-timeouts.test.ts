import { mkdtempSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, queryTimeoutSettings, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { captureLog } from '../test/log-capture.ts';
import { createScratchPostgres, createUser, TEST_DB, testConfig, type TestApp, type TestUser } from '../test/test-app.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './errors.ts';
import { registerErrorHandling } from './http-errors.ts';
import { loggerOptions } from './logging.ts';

/*
 * DATABASE_QUERY_TIMEOUT_SECONDS: every query of the pool that serves requests is bounded (a slow
 * statement, a lock held elsewhere, a connection gone silent), the request answers 503
 * DATABASE_UNAVAILABLE, and maintenance (migrations, rawTransaction, backups' own databases) is not
 * bounded. The 'database unavailable' warning carries the driver's message and code.
 */

const pgError = (message: string, code: string) => Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });
const wrapped = (cause: Error) => new DrizzleQueryError('select "id" from "users" where "email" = $1', ['secret.person@example.com'], cause);

describe('the error handler: the serving pool\'s timeouts answer 503 DATABASE_UNAVAILABLE; the warning says why', () => {
  const log = captureLog();
  const app = Fastify({ logger: loggerOptions('info', log.stream) });
  const errors: Record<string, Error> = {
    'statement-timeout': wrapped(pgError('canceling statement due to statement timeout', '57014')),
    'lock-timeout': wrapped(pgError('canceling statement due to lock timeout', '55P03')),
    'read-timeout': wrapped(new Error('Query read timeout')),
    refused: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    // Programming errors stay 500: an unknown column, a syntax error, a violated constraint.
    'undefined-column': wrapped(pgError('column "nope" does not exist', '42703')),
    syntax: wrapped(pgError('syntax error at or near "selec"', '42601')),
    unique: wrapped(pgError('duplicate key value violates unique constraint "users_email_key"', '23505')),
    plain: new Error('boom'),
  };
  beforeAll(async () => {
    registerErrorHandling(app);
    app.get('/fail/:kind', async (request) => {
      throw errors[(request.params as { kind: string }).kind]!;
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it.each([
    ['statement-timeout', 'DatabaseError', 'canceling statement due to statement timeout', '57014'],
    ['lock-timeout', 'DatabaseError', 'canceling statement due to lock timeout', '55P03'],
    ['read-timeout', 'Error', 'Query read timeout', undefined],
    ['refused', 'Error', 'connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'],
  ])('%s: 503 with Retry-After and the outage message; the warning carries the message and code', async (kind, type, message, code) => {
    log.clear();
    const res = await app.inject({ method: 'GET', url: `/fail/${kind}` });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
    const entry = log.entries().find((e) => e.msg === 'database unavailable');
    expect(entry).toBeDefined();
    const dbError = entry!.dbError as Record<string, unknown>;
    expect(dbError).toMatchObject({ type, message, ...(code ? { code } : {}) });
    if (kind !== 'refused') expect(dbError.query).toBe('select "id" from "users" where "email" = $1');
    expect(log.text()).not.toContain('[object Object]');
    expect(log.text()).not.toContain('secret.person@example.com');
    expect(log.text()).not.toContain('    at ');
  });

  it.each(['undefined-column', 'syntax', 'unique', 'plain'])('%s: a programming error stays 500 INTERNAL', async (kind) => {
    const res = await app.inject({ method: 'GET', url: `/fail/${kind}` });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error', code: 'INTERNAL' });
  });
});

describe('DATABASE_QUERY_TIMEOUT_SECONDS', () => {
  it('defaults to 15 s, 0 turns it off, and becomes statement_timeout, lock_timeout (half) and query_timeout (+1 s)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-qt-'));
    const base = { NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'test-secret-test-secret-test-secret-123' };
    expect(loadConfig(base).databaseQueryTimeoutSeconds).toBe(15);
    expect(loadConfig({ ...base, DATABASE_QUERY_TIMEOUT_SECONDS: '0' }).databaseQueryTimeoutSeconds).toBe(0);
    expect(loadConfig({ ...base, DATABASE_QUERY_TIMEOUT_SECONDS: '2.5' }).databaseQueryTimeoutSeconds).toBe(2.5);
    expect(() => loadConfig({ ...base, DATABASE_QUERY_TIMEOUT_SECONDS: '-1' })).toThrow(/DATABASE_QUERY_TIMEOUT_SECONDS/);
    expect(queryTimeoutSettings(15)).toEqual({ statement_timeout: 15_000, lock_timeout: 7_500, query_timeout: 16_000 });
    expect(queryTimeoutSettings(0)).toEqual({});
    expect(queryTimeoutSettings(undefined)).toEqual({});
  });
});

/**
 * A TCP proxy on 127.0.0.1 that can turn into a black hole: connections stay open and what is sent
 * is accepted but goes nowhere (new connections are accepted too, and never answered), as with a
 * dead route or a frozen host. `pass()` delivers what was held (as TCP would once the route is back)
 * and forwards again.
 */
async function startBlackHoleProxy(target: { host: string; port: number }) {
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Array<[Socket, Buffer]> }>();
  let holding = false;
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    const pair = { client, upstream, held: [] as Array<[Socket, Buffer]> };
    pairs.add(pair);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (holding) pair.held.push([to, chunk]);
      else if (!to.destroyed) to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get open() { return pairs.size; },
    blackHole() { holding = true; },
    pass() {
      holding = false;
      for (const pair of pairs) {
        for (const [to, chunk] of pair.held) if (!to.destroyed) to.write(chunk);
        pair.held.length = 0;
      }
    },
    close: async () => {
      for (const { client, upstream } of pairs) { client.destroy(); upstream.destroy(); }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const RUN = Boolean(process.env.TEST_DATABASE_URL) && TEST_DB === 'postgres';

describe.skipIf(!RUN)('PostgreSQL: the serving pool bounds every query; maintenance is not bounded', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const opened: Database[] = [];
  const open = async (opts: Parameters<typeof openDatabase>[0]) => {
    const database = await openDatabase(opts);
    opened.push(database);
    return database;
  };

  beforeAll(async () => {
    scratch = await createScratchPostgres({ template: inject('postgresTemplate') });
  }, 60_000);
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    await scratch?.drop();
  }, 60_000);

  async function settings(database: Database) {
    const [row] = await database.query<{ statement_timeout: string; lock_timeout: string }>(
      "SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('lock_timeout') AS lock_timeout",
    );
    return row;
  }

  it('a bounded pool sets statement_timeout and lock_timeout per connection; the default (backups, restores, the tests) sets none', async () => {
    const bounded = await open({ databaseUrl: scratch.url, poolSize: 2, queryTimeoutSeconds: 1 });
    expect(await settings(bounded)).toEqual({ statement_timeout: '1s', lock_timeout: '500ms' });
    // What ops/backup.ts and ops/restore.ts open: { databaseUrl, poolSize: 2 }.
    const maintenance = await open({ databaseUrl: scratch.url, poolSize: 2 });
    expect(await settings(maintenance)).toEqual({ statement_timeout: '0', lock_timeout: '0' });
    const off = await open({ databaseUrl: scratch.url, poolSize: 1, queryTimeoutSeconds: 0 });
    expect(await settings(off)).toEqual({ statement_timeout: '0', lock_timeout: '0' });
  });

  it('a slow statement is cancelled by the server (57014) after the timeout, and the connection serves the next query', async () => {
    const bounded = await open({ databaseUrl: scratch.url, poolSize: 1, queryTimeoutSeconds: 1 });
    const started = Date.now();
    await expect(bounded.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await bounded.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('rawTransaction and migrations (what main.ts runs on the serving pool) are not bounded: a long migration after a long wait for the lock', async () => {
    const bounded = await open({ databaseUrl: scratch.url, poolSize: 2, queryTimeoutSeconds: 1 });
    // Longer than statement_timeout and than query_timeout (2 s).
    const [slept] = await bounded.rawTransaction((tx) => tx.query<{ ok: number }>('SELECT 1 AS ok FROM pg_sleep(2.5)'));
    expect(slept).toEqual({ ok: 1 });
    expect(await settings(bounded)).toEqual({ statement_timeout: '1s', lock_timeout: '500ms' });

    // Another instance migrating holds the migrations' advisory lock (migrate.ts) for 2 s.
    const other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(727274001)');
      const release = setTimeout(() => void other.query('COMMIT'), 2000);
      const dir = mkdtempSync(path.join(tmpdir(), 'shop-migrations-'));
      writeFileSync(path.join(dir, '0001_slow.sql'), 'SELECT pg_sleep(2.5);\nCREATE TABLE slow_migration_done (id int);');
      const started = Date.now();
      expect(await migrate(bounded, dir)).toEqual(['0001_slow.sql']);
      expect(Date.now() - started).toBeGreaterThan(4000);
      clearTimeout(release);
    } finally {
      await other.end();
    }
    expect(await bounded.query("SELECT to_regclass('slow_migration_done') IS NOT NULL AS done")).toEqual([{ done: true }]);
  }, 30_000);

  describe('the shop', () => {
    let t: TestApp;
    let customer: TestUser;
    let proxy: Awaited<ReturnType<typeof startBlackHoleProxy>>;
    const log = captureLog();
    const signIn = () => t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: customer.email, password: customer.password } });
    const timed = async <T>(fn: () => Promise<T>) => {
      const started = Date.now();
      const result = await fn();
      return { result, ms: Date.now() - started };
    };

    beforeAll(async () => {
      const target = new URL(scratch.url);
      proxy = await startBlackHoleProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(scratch.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      // As main.ts opens it, with a 1 s bound.
      const database = await open({ databaseUrl: viaProxy.toString(), poolSize: 4, connectTimeoutSeconds: 1, queryTimeoutSeconds: 1 });
      const config = testConfig({ LOG_LEVEL: 'info', DATABASE_QUERY_TIMEOUT_SECONDS: '1' });
      const app = await buildApp({ config, database, logStream: log.stream });
      await app.ready();
      t = { app, database, config, close: () => app.close() };
      customer = await createUser(t, { name: 'Timeout Customer' });
    }, 60_000);
    afterAll(async () => {
      proxy?.pass();
      await t?.close();
      await proxy?.close();
    }, 30_000);

    it('a table lock held by another connection beyond lock_timeout answers 503 at once, not after the lock', async () => {
      expect((await signIn()).statusCode).toBe(200);
      const locker = new pg.Client({ connectionString: scratch.url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
        log.clear();
        const { result: res, ms } = await timed(signIn);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
        expect(ms).toBeLessThan(4000);
        const warning = log.entries().find((e) => e.msg === 'database unavailable');
        expect(warning?.dbError).toMatchObject({ code: '55P03', message: 'canceling statement due to lock timeout' });
      } finally {
        await locker.query('COMMIT').catch(() => undefined);
        await locker.end();
      }
      expect((await signIn()).statusCode).toBe(200);
    });

    it('a black-holed connection: sign-in, a catalogue search and /api/ready answer 503 within about the timeout; the shop serves again when traffic passes', async () => {
      expect((await signIn()).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      expect(proxy.open).toBeGreaterThan(0);
      proxy.blackHole();
      log.clear();
      try {
        const signedIn = await timed(signIn);
        expect(signedIn.result.statusCode).toBe(503);
        expect(signedIn.result.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
        expect(signedIn.ms).toBeLessThan(6000);
        const warnings = log.entries().filter((e) => e.msg === 'database unavailable');
        expect(warnings.length).toBeGreaterThan(0);
        const said = warnings.map((e) => (e.dbError as { message?: string }).message);
        expect(said.some((m) => m === 'Query read timeout' || /timeout exceeded when trying to connect|Connection terminated/.test(m ?? ''))).toBe(true);
        expect(log.text()).not.toContain('[object Object]');

        // Several at once (more than the pool): each bounded, none waits behind another's timeout.
        const many = await timed(() => Promise.all(Array.from({ length: 8 }, (_, i) =>
          t.app.inject({ method: 'GET', url: `/api/products/search?query=blackhole${i}x${Date.now()}` }))));
        expect(many.result.map((r) => r.statusCode)).toEqual(Array(8).fill(503));
        expect(many.ms).toBeLessThan(8000);

        const ready = await timed(() => t.app.inject({ method: 'GET', url: '/api/ready' }));
        expect(ready.result.statusCode).toBe(503);
        expect(ready.ms).toBeLessThan(6000);
        console.info(`black hole (1 s bound): sign-in 503 in ${signedIn.ms} ms, 8 searches in ${many.ms} ms, /api/ready 503 in ${ready.ms} ms; warnings: ${[...new Set(said)].join(' | ')}`);
      } finally {
        proxy.pass();
      }
      const deadline = Date.now() + 20_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode;
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
      expect((await signIn()).statusCode).toBe(200);
    }, 60_000);
  });
});
