import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type App } from '../../app.ts';
import { captureLog, type CapturedLog } from '../../test/log-capture.ts';
import { openTestDatabase, testConfig } from '../../test/test-app.ts';
import { connectChat, guestCookieOf, listen, type TestChatClient } from './chat.test-helpers.ts';
import { isClientSocketError } from './chat.socket.ts';

/**
 * A frame the ws library refuses (over 64 KB, invalid UTF-8, unmasked) is the client's doing: it
 * closes that socket with its code and writes no error-level line (the default errorHandler of
 * @fastify/websocket logged each at error with a stack: any visitor could flood the log). A real
 * failure on a socket still logs an error and closes it with 1011.
 */

const ERROR_LEVEL = 50;

/** Upgrades a raw TCP connection and sends `frame` as is; resolves with the close code of the server's close frame (or null). */
function sendRawFrame(port: number, cookie: string, frame: Buffer): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let upgraded = false;
    const timer = setTimeout(() => { sock.destroy(); reject(new Error('raw socket timed out')); }, 10_000);
    sock.on('error', () => undefined);
    sock.on('connect', () => {
      sock.write([
        'GET /ws/chat HTTP/1.1', 'Host: 127.0.0.1', 'Upgrade: websocket', 'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`, 'Sec-WebSocket-Version: 13', `Cookie: ${cookie}`, '', '',
      ].join('\r\n'));
    });
    sock.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!buf.subarray(0, end).toString().startsWith('HTTP/1.1 101')) { clearTimeout(timer); reject(new Error(buf.toString())); return; }
        upgraded = true;
        buf = buf.subarray(end + 4);
        sock.write(frame);
      }
    });
    sock.on('close', () => {
      clearTimeout(timer);
      // Server frames are unmasked: find the close frame (opcode 8) among what came back.
      let i = 0;
      while (i + 2 <= buf.length) {
        const opcode = buf[i]! & 0x0f;
        let len = buf[i + 1]! & 0x7f;
        let at = i + 2;
        if (len === 126) { len = buf.readUInt16BE(at); at += 2; } else if (len === 127) { len = Number(buf.readBigUInt64BE(at)); at += 8; }
        if (opcode === 8) { resolve(len >= 2 ? buf.readUInt16BE(at) : null); return; }
        i = at + len;
      }
      resolve(null);
    });
  });
}

describe('chat socket: errors a client causes', () => {
  let app: App;
  let log: CapturedLog;
  let cleanup: () => Promise<void>;
  let base: string;
  let port: number;
  let guestCookie: string;
  const clients: TestChatClient[] = [];
  const errorLines = () => log.entries().filter((e) => typeof e.level === 'number' && e.level >= ERROR_LEVEL);

  beforeAll(async () => {
    const opened = await openTestDatabase();
    cleanup = opened.cleanup;
    log = captureLog();
    app = await buildApp({ config: testConfig({ LOG_LEVEL: 'debug', CHAT_SOCKETS_PER_IP: '200' }), database: opened.database, logStream: log.stream });
    await app.ready();
    base = await listen(app);
    port = Number(new URL(base).port);
    const res = await app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Gail Guest', email: 'gail@example.com' } });
    expect(res.statusCode).toBe(200);
    guestCookie = guestCookieOf(res.headers['set-cookie']);
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await app?.close();
    await cleanup?.();
  });

  const connect = async () => {
    const c = await connectChat(base, { cookie: guestCookie });
    clients.push(c);
    await c.waitFor((e) => e.type === 'hello');
    return c;
  };

  it('an oversized, an invalid UTF-8 and an unmasked frame close their socket (1009, 1007, 1002) without an error-level line; other sockets are unaffected', async () => {
    const bystander = await connect();
    log.clear();

    // 100 sockets in a burst, each with a frame ws refuses.
    const bad = await Promise.all(Array.from({ length: 100 }, () => connect()));
    const invalidUtf8 = Buffer.concat([Buffer.from('{"type":"message","content":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]);
    bad.forEach((c, i) => {
      if (i % 2 === 0) c.ws.send(JSON.stringify({ type: 'message', content: 'x'.repeat(64 * 1024 + 10), clientId: `big${i}` }));
      else c.ws.send(invalidUtf8, { binary: false });
    });
    const codes = await Promise.all(bad.map((c) => c.closed.then((x) => x.code)));
    expect(codes.filter((c, i) => c === (i % 2 === 0 ? 1009 : 1007))).toHaveLength(100);

    // An unmasked client frame (a protocol error): 1002.
    const unmasked = Buffer.concat([Buffer.from([0x81, 0x0f]), Buffer.from('{"type":"ping"}')]);
    expect(await sendRawFrame(port, guestCookie, unmasked)).toBe(1002);

    await new Promise((r) => setTimeout(r, 200));
    expect(errorLines()).toEqual([]);
    expect(log.text()).not.toContain('"stack"');
    // Logged at debug, once per socket, without a stack.
    const debugLines = log.entries().filter((e) => e.msg === 'chat: socket closed for a client error');
    expect(debugLines.length).toBe(101);
    expect(debugLines.every((e) => e.level === 20)).toBe(true);

    // The bystander still chats.
    bystander.ws.send(JSON.stringify({ type: 'ping' }));
    await bystander.waitFor((e) => (e.type as string) === 'pong');
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
  }, 60_000);

  it('a real failure on a socket is still logged as an error and closes that socket with 1011', async () => {
    const bystander = await connect();
    // The server side of the victim's connection: ws keeps its WebSocket on the TCP socket.
    let upgraded: net.Socket | undefined;
    const onUpgrade = (_req: unknown, socket: net.Socket) => { upgraded = socket; };
    app.server.on('upgrade', onUpgrade);
    const victim = await connect();
    app.server.off('upgrade', onUpgrade);
    const key = Object.getOwnPropertySymbols(upgraded!).find((sym) => sym.description === 'websocket')!;
    const target = (upgraded as unknown as Record<symbol, WebSocket>)[key]!;
    log.clear();
    // An error that is not a client's frame error.
    target.emit('error', new Error('something broke on our side'));
    expect((await victim.closed).code).toBe(1011);
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toBe('chat: a socket failed; closing it');
    expect(JSON.stringify(errors[0])).toContain('something broke on our side');
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('classifies errors: ws frame errors and dropped connections are the client\'s, anything else is ours', () => {
    for (const code of ['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'WS_ERR_INVALID_UTF8', 'WS_ERR_EXPECTED_MASK', 'WS_ERR_INVALID_OPCODE', 'ECONNRESET', 'EPIPE']) {
      expect(isClientSocketError(Object.assign(new Error('x'), { code })), code).toBe(true);
    }
    for (const err of [new Error('boom'), Object.assign(new Error('db'), { code: '57P01' }), new TypeError('x'), null, undefined, 'text']) {
      expect(isClientSocketError(err)).toBe(false);
    }
  });
});
