import { request, type APIRequestContext } from '@playwright/test';
import { deflateSync } from 'node:zlib';
import { DEMO_ADMIN } from './fixtures';

/** Test data for the catalogue specs, made through the API so the specs never depend on the demo catalogue. */

const baseURL = `http://localhost:${process.env.E2E_PORT}`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of one colour (a 1x1 by default), built in memory. */
export function makePng(rgb: [number, number, number] = [220, 40, 40], size = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A word no demo product contains, so a search for it finds only this run's products. */
export function uniqueWord(): string {
  const letters = 'bcdfghjklmnpqrstvwxz';
  let word = 'zyx';
  for (let i = 0; i < 7; i++) word += letters[Math.floor(Math.random() * letters.length)];
  return word;
}

/** An API client signed in as the demo admin. */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const res = await api.post('/api/users/signin', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } });
  if (!res.ok()) throw new Error(`admin sign-in failed: ${res.status()} ${await res.text()}`);
  return api;
}

export async function uploadPng(api: APIRequestContext, rgb: [number, number, number]): Promise<string> {
  const res = await api.post('/api/upload', { multipart: { file: { name: 'test.png', mimeType: 'image/png', buffer: makePng(rgb, 8) } } });
  if (!res.ok()) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { secure_url: string }).secure_url;
}

export interface NewProduct {
  name: string;
  slug: string;
  price: number;
  image: string;
  images?: string[];
  category: string;
  brand?: string;
  countInStock?: number;
  description?: string;
  isOnSale?: boolean;
  saleDiscount?: number;
  isTodaysDeal?: boolean;
  isGift?: boolean;
}

/** Create Product + Update, as the admin screens do. Returns the saved product's id. */
export async function createProduct(api: APIRequestContext, p: NewProduct): Promise<string> {
  const created = await api.post('/api/products');
  if (!created.ok()) throw new Error(`create failed: ${created.status()} ${await created.text()}`);
  const { product } = (await created.json()) as { product: { _id: string } };
  const body = {
    _id: product._id,
    images: [],
    brand: 'Testbrand',
    countInStock: 10,
    description: `${p.name} for browser tests.`,
    isOnSale: false,
    saleDiscount: 0,
    isTodaysDeal: false,
    isGift: false,
    ...p,
  };
  const updated = await api.put(`/api/products/${product._id}`, { data: body });
  if (!updated.ok()) throw new Error(`update failed: ${updated.status()} ${await updated.text()}`);
  return product._id;
}
