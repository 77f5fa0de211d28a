import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { runStartupTasks } from '../../startup.ts';
import { postgresOnlySkipReason } from '../../test/requirements.ts';
import { createAdmin, createScratchPostgres, testConfig } from '../../test/test-app.ts';

const BOUNDARY = '----shop-fleet-boundary';
const multipart = (data: Buffer) => ({
  payload: Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]),
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
});

// Two app instances, as two machines would run them: one PostgreSQL database, each its own DATA_DIR.
// Only PostgreSQL can be shared like this (the embedded database belongs to one process).
const SKIP = postgresOnlySkipReason();
if (SKIP) console.info(`two-instance uploads test skipped: ${SKIP}`);

describe.skipIf(SKIP)('uploads shared by two instances on one PostgreSQL database', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const instances: Array<{ app: App; database: Database; dataDir: string }> = [];
  let adminCookie: string;

  const start = async () => {
    const config = testConfig({ DATABASE_URL: scratch.url });
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
    await migrate(database);
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    const instance = { app, database, dataDir: config.dataDir };
    instances.push(instance);
    return instance;
  };

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    await start();
    await start();
    const first = instances[0]!;
    adminCookie = (await createAdmin({ ...first, config: first.app.ctx.config, close: async () => {} })).cookie;
  });
  afterAll(async () => {
    for (const i of instances) {
      await i.app.close();
      await i.database.close();
      rmSync(i.dataDir, { recursive: true, force: true });
    }
    await scratch?.drop();
  });

  it('an image uploaded through the first instance is served by the second, with the same bytes and validators', async () => {
    const [a, b] = instances as [typeof instances[0], typeof instances[0]];
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const form = multipart(png);
    const up = await a.app.inject({ method: 'POST', url: '/api/upload', payload: form.payload, headers: { ...form.headers, cookie: adminCookie } });
    expect(up.statusCode).toBe(201);
    const url = up.json().secure_url as string;

    const fromA = await a.app.inject({ method: 'GET', url });
    const fromB = await b.app.inject({ method: 'GET', url });
    expect(fromB.statusCode).toBe(200);
    expect(fromB.headers['content-type']).toBe('image/webp');
    expect(fromB.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(fromB.rawPayload, fromA.rawPayload)).toBe(0);
    expect(fromB.headers.etag).toBe(fromA.headers.etag);
    expect(fromB.headers['last-modified']).toBe(fromA.headers['last-modified']);
    // A browser that got the image from one instance revalidates against the other.
    const again = await b.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(fromA.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // No instance keeps the original on its disk.
    for (const i of instances) expect(existsSync(path.join(i.dataDir, 'uploads'))).toBe(false);
  });

  it('the variant cache is local and disposable: deleted, it is rebuilt on the next request with the same bytes', async () => {
    const [a, b] = instances as [typeof instances[0], typeof instances[0]];
    const [key] = await a.app.ctx.uploads.list();
    const variant = `/uploads/w/400/${key}`;
    const first = await b.app.inject({ method: 'GET', url: variant });
    expect(first.statusCode).toBe(200);
    expect((await sharp(first.rawPayload).metadata()).width).toBe(400);
    const cacheDir = path.join(b.dataDir, 'upload-variants');
    expect(readdirSync(path.join(cacheDir, '400'))).toHaveLength(1);

    rmSync(cacheDir, { recursive: true, force: true });
    const rebuilt = await b.app.inject({ method: 'GET', url: variant });
    expect(rebuilt.statusCode).toBe(200);
    expect(Buffer.compare(rebuilt.rawPayload, first.rawPayload)).toBe(0);
    expect(readdirSync(path.join(cacheDir, '400'))).toHaveLength(1);
    // The other instance makes its own copy, and both answer the same validator.
    const fromA = await a.app.inject({ method: 'GET', url: variant });
    expect(fromA.statusCode).toBe(200);
    expect(fromA.headers.etag).toBe(rebuilt.headers.etag);
    expect(Buffer.compare(fromA.rawPayload, rebuilt.rawPayload)).toBe(0);
  });

  it('images left on an instance disk from before are moved into the database at start, once', async () => {
    const [a, b] = instances as [typeof instances[0], typeof instances[0]];
    const legacy = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#884422' } }).webp().toBuffer();
    mkdirSync(path.join(a.dataDir, 'uploads'), { recursive: true });
    writeFileSync(path.join(a.dataDir, 'uploads', 'legacy-photo.webp'), legacy);
    expect((await b.app.inject({ method: 'GET', url: '/uploads/legacy-photo.webp' })).statusCode).toBe(404);

    await runStartupTasks(a.app, a.database);
    const served = await b.app.inject({ method: 'GET', url: '/uploads/legacy-photo.webp' });
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, legacy)).toBe(0);
    expect(existsSync(path.join(a.dataDir, 'uploads'))).toBe(false);
    const count = async () => (await b.database.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))[0]?.n;
    const before = await count();
    await runStartupTasks(a.app, a.database);
    await runStartupTasks(b.app, b.database);
    expect(await count()).toBe(before);
  });
});
