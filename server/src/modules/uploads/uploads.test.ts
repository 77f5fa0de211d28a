import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';

const BOUNDARY = '----shop-test-boundary';

function multipart(fields: Array<{ name: string; filename?: string; contentType?: string; data: Buffer | string }>) {
  const chunks: Buffer[] = [];
  for (const f of fields) {
    const disposition = `form-data; name="${f.name}"${f.filename ? `; filename="${f.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${f.contentType ? `Content-Type: ${f.contentType}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } });

describe('POST /api/upload and GET /uploads/{key}', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  const upload = (form: ReturnType<typeof multipart>, user: TestUser | null = admin) =>
    t.app.inject({ method: 'POST', url: '/api/upload', payload: form.payload, headers: { ...form.headers, ...(user ? { cookie: user.cookie } : {}) } });
  const file = (data: Buffer | string, filename = 'photo.jpg', contentType = 'image/jpeg') =>
    multipart([{ name: 'file', filename, contentType, data }]);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  it('accepts a real JPEG, re-encodes it to WebP without metadata and serves it with a long cache', async () => {
    const jpeg = await solid(800, 600).withMetadata({ exif: { IFD0: { Copyright: 'secret-owner', Artist: 'someone' } } }).jpeg().toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload(file(jpeg));
    expect(res.statusCode).toBe(201);
    const body = res.json() as { secure_url: string; message: string };
    expect(body.secure_url).toMatch(/^\/uploads\/[0-9a-f]{24}\.webp$/);
    expect(body.message).toBe('Image uploaded successfully. Click Update to apply it.');

    const served = await t.app.inject({ method: 'GET', url: body.secure_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(800);
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('secret-owner'))).toBe(false);

    const again = await t.app.inject({ method: 'GET', url: body.secure_url, headers: { 'if-none-match': String(served.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('accepts PNG, WebP, GIF and AVIF detected from the bytes, whatever the name', async () => {
    const samples: Array<[string, Buffer]> = [
      ['png', await solid(64, 48).png().toBuffer()],
      ['webp', await solid(64, 48).webp().toBuffer()],
      ['gif', await solid(64, 48).gif().toBuffer()],
      ['avif', await solid(64, 48).avif().toBuffer()],
    ];
    for (const [kind, data] of samples) {
      const res = await upload(file(data, 'misleading-name.txt', 'text/plain'));
      expect(res.statusCode, kind).toBe(201);
      const served = await t.app.inject({ method: 'GET', url: res.json().secure_url });
      expect((await sharp(served.rawPayload).metadata()).format, kind).toBe('webp');
    }
  });

  it('resizes large images to at most 1600 px on the longest side', async () => {
    const big = await solid(3200, 1000).png({ compressionLevel: 9 }).toBuffer();
    const res = await upload(file(big, 'big.png', 'image/png'));
    expect(res.statusCode).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: res.json().secure_url });
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1600, 500]);
  });

  it('rejects a text file renamed to .jpg, an SVG and an empty file', async () => {
    for (const [data, name, type] of [
      ['just some text, not an image', 'photo.jpg', 'image/jpeg'],
      ['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>', 'x.png', 'image/png'],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 'truncated.jpg', 'image/jpeg'],
    ] as const) {
      const res = await upload(file(data, name, type));
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toBe('File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)');
    }
    const empty = await upload(file(Buffer.alloc(0)));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("No file uploaded: send the image as multipart field 'file'");
  });

  it('rejects files over 5 MB with a clear 400', async () => {
    const huge = Buffer.concat([await solid(10, 10).jpeg().toBuffer(), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const res = await upload(file(huge));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('File too large (max 5 MB)');
  });

  it('rejects requests without the file field or not multipart', async () => {
    const wrongField = await upload(multipart([{ name: 'image', filename: 'a.png', contentType: 'image/png', data: await solid(8, 8).png().toBuffer() }]));
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe("No file uploaded: send the image as multipart field 'file'");
    const json = await t.app.inject({ method: 'POST', url: '/api/upload', payload: { file: 'x' }, headers: { cookie: admin.cookie } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe("No file uploaded: send the image as multipart field 'file'");
  });

  it('refuses anonymous callers (401) and non-admins (403) and stores nothing', async () => {
    const count = async () => (await t.app.ctx.uploads.list()).length;
    const before = await count();
    const png = await solid(8, 8).png().toBuffer();
    const anon = await upload(file(png), null);
    expect(anon.statusCode).toBe(401);
    const user = await upload(file(png), customer);
    expect(user.statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('serves resized WebP copies at /uploads/w/{width}/{key}, cached on disk, never enlarged', async () => {
    const res = await upload(file(await solid(1200, 900).jpeg().toBuffer()));
    const url = res.json().secure_url as string;
    const key = url.slice('/uploads/'.length);
    for (const [width, expected] of [[200, [200, 150]], [400, [400, 300]], [800, [800, 600]]] as const) {
      const served = await t.app.inject({ method: 'GET', url: `/uploads/w/${width}/${key}` });
      expect(served.statusCode, String(width)).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', ...expected]);
    }
    const cached = readdirSync(path.join(t.config.dataDir, 'upload-variants', '400')).filter((f) => f.startsWith(`${key}.`));
    expect(cached).toHaveLength(1);
    expect(statSync(path.join(t.config.dataDir, 'upload-variants', '400', cached[0]!)).isFile()).toBe(true);
    const first = await t.app.inject({ method: 'GET', url: `/uploads/w/400/${key}` });
    const again = await t.app.inject({ method: 'GET', url: `/uploads/w/400/${key}`, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);

    // Concurrent first requests share one resize and all get the whole image.
    const small = await upload(file(await solid(300, 300).png().toBuffer(), 'small.png', 'image/png'));
    const smallKey = (small.json().secure_url as string).slice('/uploads/'.length);
    const all = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'GET', url: `/uploads/w/800/${smallKey}` })));
    for (const r of all) {
      expect(r.statusCode).toBe(200);
      // Never enlarged.
      expect((await sharp(r.rawPayload).metadata()).width).toBe(300);
    }
  });

  it('answers 404 for variant widths outside the allowed set and for unknown or malformed keys', async () => {
    const res = await upload(file(await solid(100, 100).png().toBuffer(), 'a.png', 'image/png'));
    const key = (res.json().secure_url as string).slice('/uploads/'.length);
    for (const url of [
      `/uploads/w/300/${key}`,
      `/uploads/w/0400/${key}`,
      `/uploads/w/400.0/${key}`,
      `/uploads/w/-400/${key}`,
      `/uploads/w/abc/${key}`,
      `/uploads/w/99999999999/${key}`,
      '/uploads/w/400/000000000000000000000000.webp',
      '/uploads/w/400/..%2F..%2Fetc%2Fpasswd',
      '/uploads/w/400/..%2Fuploads%2F' + key,
      '/uploads/w/400/%2e%2e',
      '/uploads/w/400/x.js',
      `/uploads/w/400/${key}/extra`,
    ]) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
    }
  });

  it('answers 404 for unknown or malformed upload keys', async () => {
    for (const url of ['/uploads/000000000000000000000000.webp', '/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/x.js', '/uploads/%2e%2e']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
