import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, type TestApp, type TestUser } from '../test/test-app.ts';
import { NUL_NOT_ALLOWED } from './input-guard.ts';
import { INVALID_UPLOAD } from './multipart.ts';

const INVALID = { message: INVALID_UPLOAD, code: 'INVALID_UPLOAD', fieldErrors: { file: INVALID_UPLOAD } };
const BOUNDARY = 'shop-multipart-test';

const part = (name: string, data: string | Buffer, filename?: string) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n`),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from('\r\n'),
  ]);
const end = Buffer.from(`--${BOUNDARY}--\r\n`);

describe('malformed multipart bodies on POST /api/upload answer 400, never 500', () => {
  let t: TestApp;
  let admin: TestUser;
  let png: Buffer;
  const upload = (payload: Buffer | string, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/api/upload', payload, headers: { 'content-type': contentType, cookie: admin.cookie } });
  const uploadsOnDisk = () => {
    try {
      return readdirSync(path.join(t.config.dataDir, 'uploads')).length;
    } catch {
      return 0;
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
  });
  afterAll(async () => { await t.close(); });

  it("multipart/form-data without a boundary: 400 'Invalid upload'", async () => {
    const res = await upload(Buffer.concat([part('file', png, 'a.png'), end]), 'multipart/form-data');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID);
  });

  it('an empty boundary, a broken part header, a truncated body: 400', async () => {
    const cases: Array<[Buffer | string, string]> = [
      [Buffer.concat([part('file', png, 'a.png'), end]), 'multipart/form-data; boundary='],
      [`--${BOUNDARY}\r\nContent-Disposition form-data name\r\n\r\nxx\r\n--${BOUNDARY}--\r\n`, `multipart/form-data; boundary=${BOUNDARY}`],
      [Buffer.concat([part('file', png, 'a.png')]).subarray(0, 60), `multipart/form-data; boundary=${BOUNDARY}`],
      ['not multipart at all', `multipart/form-data; boundary=${BOUNDARY}`],
      [`--${BOUNDARY}\r\n${'X-Long: y\r\n'.repeat(5000)}\r\nz\r\n--${BOUNDARY}--`, `multipart/form-data; boundary=${BOUNDARY}`],
    ];
    for (const [payload, contentType] of cases) {
      const res = await upload(payload, contentType);
      expect(res.statusCode, `${contentType} ${String(payload).slice(0, 40)}`).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    expect(uploadsOnDisk()).toBe(0);
  });

  it('a NUL character in a file name or in a field before the file: 400 naming the field', async () => {
    const inName = await upload(Buffer.concat([part('file', png, 'a\u0000.png'), end]), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(inName.statusCode).toBe(400);
    expect(inName.json()).toEqual({ message: `Invalid multipart field 'file': ${NUL_NOT_ALLOWED}`, code: 'VALIDATION_ERROR', fieldErrors: { file: NUL_NOT_ALLOWED } });
    const inField = await upload(Buffer.concat([part('caption', 'x\u0000y'), part('file', png, 'a.png'), end]), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(inField.statusCode).toBe(400);
    expect(inField.json().fieldErrors).toEqual({ caption: NUL_NOT_ALLOWED });
    expect(uploadsOnDisk()).toBe(0);
  });

  it('a well-formed upload still works', async () => {
    const res = await upload(Buffer.concat([part('file', png, 'a.png'), end]), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(res.statusCode).toBe(201);
    expect(res.json().secure_url).toMatch(/^\/uploads\/[0-9a-f]{24}\.webp$/);
  });
});
