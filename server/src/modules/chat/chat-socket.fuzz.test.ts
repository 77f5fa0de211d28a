import { CHAT_CLOSE_INVALID_FRAMES, CHAT_INVALID_FRAME_MESSAGE, type ChatServerEvent } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAdmin, createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { connectChat, guestCookieOf, isAck, listen } from './chat.test-helpers.ts';
import { MAX_INVALID_FRAMES } from './frame-guard.ts';
import { mulberry32 } from '../../lib/seeded-random.ts';

/**
 * The chat socket under every shape of frame (issue 19): a fixed seed generates ≥ 10,000 frames —
 * JSON null, numbers, strings, arrays, objects nested 1,000 deep, each client frame type with wrong
 * types in every field, __proto__/constructor keys, NUL, 64 KB+, binary, invalid UTF-8 — sent in
 * batches from guests, customers and administrators. Every invalid frame must be answered with
 * "Invalid message" (counted per batch, up to a ping answered by pong: frames are handled in
 * order), oversized and invalid UTF-8 frames close the socket (1009, 1007), and afterwards the
 * process is still there: no uncaught exception or unhandled rejection, /api/health 200, a fresh
 * socket chats.
 */

const SEED = 0x5eed_2026;
const TARGET_FRAMES = 10_000;
const BATCH = MAX_INVALID_FRAMES - 4; // below the 4400 threshold: one socket per batch
const PARALLEL = 8;


type Expect = 'invalid' | 'valid' | 'message' | 1009 | 1007;
interface Frame { data: string | Buffer; binary: boolean; expect: Expect }

function generator(seed: number) {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T,>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const nest = (depth: number, open: string, close: string, inner = '1') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
  // Every field of a client frame is a string: each of these is the wrong type for it.
  const wrongValues: readonly unknown[] = [null, 0, -1, 1.5, 1e308, true, false, [], {}, [1, 'a'], { a: 1 }];
  const scalar = (): unknown => pick([null, int(1e9) - 5e8, rnd(), true, false, 'text', '', 'ü€😀', -0, 1e21]);
  const text = (data: string, expect: Expect): Frame => ({ data, binary: false, expect });

  const kinds: Array<() => Frame> = [
    () => text('null', 'invalid'),
    () => text(String(int(1e6) - 5e5), 'invalid'),
    () => text(JSON.stringify(pick(['message', 'ping', '', 'x'])), 'invalid'),
    () => text(JSON.stringify([scalar(), scalar()]), 'invalid'),
    () => text(JSON.stringify({ type: 'message', content: 'x' }).slice(0, 1 + int(20)), 'invalid'), // cut JSON
    () => text(pick(['', ' ', 'undefined', 'NaN', '{', '}', '[]', '{}', 'true', '"\\ud800"']), 'invalid'),
    // Nested 1,000 deep (and a little past the limit of 8).
    () => text(nest(1000, '[', ']'), 'invalid'),
    () => text(nest(1000, '{"a":', '}'), 'invalid'),
    () => text(`{"type":"message","content":"x","extra":${nest(9, '[', ']')}}`, 'invalid'),
    // Each frame type with a wrong type in one field, or no type at all.
    () => text(JSON.stringify({ type: pick([...wrongValues, 'unknown', 'MESSAGE', 'admin-status', '']) }), 'invalid'),
    () => text(JSON.stringify({ type: 'message', content: 'hi', clientId: pick(['', 'x'.repeat(101)]) }), 'invalid'),
    () => {
      const field = pick(['content', 'clientId', 'recipientId', 'userId', 'sender', 'senderId', 'userEmail', 'userName']);
      return text(JSON.stringify({ type: 'message', content: 'hello', clientId: `f${int(1e9)}`, [field]: pick(wrongValues) }), 'invalid');
    },
    () => text(JSON.stringify({ content: 'no type', clientId: 'x' }), 'invalid'),
    // Prototype keys: refused or ignored, never merged into anything.
    () => text('{"type":"message","__proto__":{"content":"polluted","isAdmin":true}}', 'invalid'),
    () => text('{"__proto__":{"type":"ping"}}', 'invalid'),
    () => text('{"constructor":{"prototype":{"polluted":true}},"type":"activity"}', 'valid'),
    () => text('{"type":"ping","__proto__":null}', 'valid'),
    // NUL, raw and escaped.
    () => text('{"type":"ping"}\u0000', 'invalid'),
    () => text('{"type":"message","content":"a\\u0000b","clientId":"n1"}', 'invalid'),
    // Binary frames.
    () => ({ data: Buffer.from(Array.from({ length: 1 + int(64) }, () => int(256))), binary: true, expect: 'invalid' }),
    () => ({ data: Buffer.from('{"type":"ping"}'), binary: true, expect: 'invalid' }),
    // Valid frames.
    () => text(JSON.stringify({ type: pick(['ping', 'pong', 'activity']) }), 'valid'),
    () => text(JSON.stringify({ type: 'pong', junk: scalar() }), 'valid'),
  ];
  const message = (): Frame => text(JSON.stringify({ type: 'message', content: `fuzz ${int(1e6)}`, clientId: `fz${int(1e12)}`, recipientId: 'guest_nobody' }), 'message');
  const closing: Array<() => Frame> = [
    () => text(JSON.stringify({ type: 'message', content: 'x'.repeat(64 * 1024 + int(4096)), clientId: 'big' }), 1009),
    () => ({ data: Buffer.concat([Buffer.from('{"type":"message","content":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]), binary: false, expect: 1007 }),
  ];

  /** One batch for one socket: BATCH frames, ~1 in 200 a real message, ~1 batch in 15 ends with a frame that closes it. */
  return (): Frame[] => {
    const frames: Frame[] = [];
    for (let i = 0; i < BATCH; i += 1) frames.push(rnd() < 0.005 ? message() : pick(kinds)());
    if (rnd() < 1 / 15) frames.push(pick(closing)());
    return frames;
  };
}

interface Outcome { invalidAnswers: number; closeCode: number | null; httpStatus: number | null }

/** Opens a raw socket, sends the batch, then a ping (unless the batch closes it) and collects what came back up to the pong. */
function runBatch(base: string, cookie: string, frames: Frame[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/ws/chat`, { headers: { cookie } });
    const outcome: Outcome = { invalidAnswers: 0, closeCode: null, httpStatus: null };
    const closes = typeof frames.at(-1)!.expect === 'number';
    // Valid pings in the batch are answered too: the socket is done at the pong of the final ping.
    let pongsLeft = 1 + frames.filter((f) => f.expect === 'valid' && (JSON.parse(String(f.data)) as { type: string }).type === 'ping').length;
    const timer = setTimeout(() => { ws.terminate(); reject(new Error('batch timed out')); }, 30_000);
    const done = () => { clearTimeout(timer); resolve(outcome); };
    ws.on('unexpected-response', (_req, res) => { outcome.httpStatus = res.statusCode ?? 0; done(); });
    ws.on('error', () => undefined);
    ws.on('message', (raw) => {
      const event = JSON.parse(String(raw)) as ChatServerEvent | { type: 'pong' };
      if (event.type === 'error' && event.message === CHAT_INVALID_FRAME_MESSAGE) outcome.invalidAnswers += 1;
      if (event.type === 'pong' && !closes && (pongsLeft -= 1) === 0) ws.close();
    });
    ws.on('close', (code) => { outcome.closeCode = code; done(); });
    ws.on('open', () => {
      for (const f of frames) ws.send(f.data, { binary: f.binary });
      if (!closes) ws.send(JSON.stringify({ type: 'ping' }));
    });
  });
}

describe('chat socket fuzz', () => {
  let t: TestApp;
  let base: string;
  const cookies: Record<'guest' | 'customer' | 'admin', string> = { guest: '', customer: '', admin: '' };
  let uncaught = 0;
  const onUncaught = () => { uncaught += 1; };

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    t = await createTestApp({ env: { CHAT_SOCKETS_PER_IP: '1000', CHAT_MESSAGES_PER_MINUTE: '20', CHAT_IP_MESSAGES_PER_MINUTE: '100000' } });
    base = await listen(t.app);
    cookies.customer = (await createUser(t, { name: 'Fuzz Customer' })).cookie;
    cookies.admin = (await createAdmin(t, { name: 'Fuzz Admin' })).cookie;
    const guest = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Fuzz Guest', email: 'fuzz@example.com' } });
    cookies.guest = guestCookieOf(guest.headers['set-cookie']);
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    await t?.close();
  });

  it(`survives ${TARGET_FRAMES}+ generated frames across roles; every invalid frame is answered, none ends the process`, async () => {
    const nextBatch = generator(SEED);
    const roles = ['guest', 'customer', 'admin'] as const;
    const stats = { frames: 0, batches: 0, invalid: 0, answered: 0, closes: { 1009: 0, 1007: 0, abrupt: 0 }, http5xx: 0, byRole: { guest: 0, customer: 0, admin: 0 } };
    const batches: Array<{ role: (typeof roles)[number]; frames: Frame[] }> = [];
    for (let n = 0; n < TARGET_FRAMES;) {
      const frames = nextBatch();
      const role = roles[batches.length % roles.length]!;
      batches.push({ role, frames });
      n += frames.length;
    }
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const { role, frames } = batches[next++]!;
        const outcome = await runBatch(base, cookies[role], frames);
        if (outcome.httpStatus !== null && outcome.httpStatus >= 500) stats.http5xx += 1;
        expect(outcome.httpStatus).toBeNull();
        const last = frames.at(-1)!.expect;
        const expectedInvalid = frames.filter((f) => f.expect === 'invalid').length;
        if (typeof last === 'number') {
          // The server closes with the code; when the client is still writing the rest of the
          // frame, the reset can reach it before the close frame does (1006 at the client).
          expect([last, 1006]).toContain(outcome.closeCode);
          if (outcome.closeCode === last) stats.closes[last] += 1;
          else stats.closes.abrupt += 1;
          // Frames before the closing one may still be in flight when it closes: at most that many answers.
          expect(outcome.invalidAnswers).toBeLessThanOrEqual(expectedInvalid);
        } else {
          expect(outcome.invalidAnswers).toBe(expectedInvalid);
        }
        stats.frames += frames.length;
        stats.batches += 1;
        stats.invalid += expectedInvalid;
        stats.answered += outcome.invalidAnswers;
        stats.byRole[role] += frames.length;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));

    // 30 invalid frames within 10 s close the socket with 4400.
    const flood = await runBatch(base, cookies.guest, Array.from({ length: MAX_INVALID_FRAMES + 5 }, () => ({ data: 'null', binary: false, expect: 'invalid' as const })));
    expect(flood.closeCode).toBe(CHAT_CLOSE_INVALID_FRAMES);
    stats.frames += MAX_INVALID_FRAMES + 5;

    const health = await fetch(`${base.replace(/^ws/, 'http')}/api/health`);
    if (health.status >= 500) stats.http5xx += 1;
    expect(health.status).toBe(200);
    const fresh = await connectChat(base, { cookie: cookies.customer });
    await fresh.waitFor((e) => e.type === 'hello');
    const clientId = fresh.send('Still there?', { clientId: `after-fuzz-${Date.now()}` });
    const ack = await fresh.waitFor(isAck(clientId), 10_000);
    expect(ack.message.content).toBe('Still there?');
    await fresh.close();

    expect(uncaught).toBe(0);
    console.info(`chat socket fuzz (seed ${SEED.toString(16)}): ${stats.frames} frames in ${stats.batches + 1} sockets; roles guest ${stats.byRole.guest}, customer ${stats.byRole.customer}, admin ${stats.byRole.admin}; `
      + `${stats.invalid} invalid frames, ${stats.answered} answered "Invalid message"; closes 1009 ×${stats.closes[1009]}, 1007 ×${stats.closes[1007]} (seen as 1006 ×${stats.closes.abrupt}), 4400 ×1; `
      + `process exits 0, uncaught errors ${uncaught}, 5xx ${stats.http5xx}`);
    expect(stats.frames).toBeGreaterThanOrEqual(TARGET_FRAMES);
  }, 180_000);
});
