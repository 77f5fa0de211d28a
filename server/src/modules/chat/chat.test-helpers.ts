import type { ChatServerEvent } from '@shop/contracts';
import WebSocket from 'ws';
import type { App } from '../../app.ts';

/** A chat socket client for tests: records every event and waits for the ones a test expects. */
export interface TestChatClient {
  ws: WebSocket;
  events: ChatServerEvent[];
  waitFor<T extends ChatServerEvent>(predicate: (e: ChatServerEvent) => e is T, timeoutMs?: number): Promise<T>;
  waitFor(predicate: (e: ChatServerEvent) => boolean, timeoutMs?: number): Promise<ChatServerEvent>;
  send(content: string, opts?: { clientId?: string; recipientId?: string }): string;
  close(): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
}

let clientCounter = 0;

export async function listen(app: App): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

export function connectChat(baseWsUrl: string, opts: { cookie?: string; origin?: string; headers?: Record<string, string> } = {}): Promise<TestChatClient> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  const ws = new WebSocket(`${baseWsUrl}/ws/chat`, { headers });
  const events: ChatServerEvent[] = [];
  const waiters: Array<{ predicate: (e: ChatServerEvent) => boolean; resolve: (e: ChatServerEvent) => void }> = [];
  ws.on('message', (raw) => {
    const event = JSON.parse(String(raw)) as ChatServerEvent;
    if (event.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    events.push(event);
    for (const w of [...waiters]) {
      if (w.predicate(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => {
      const client: TestChatClient = {
        ws,
        events,
        waitFor(predicate: (e: ChatServerEvent) => boolean, timeoutMs = 5000) {
          const found = events.find(predicate);
          if (found) return Promise.resolve(found) as never;
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error(`timed out waiting; got ${JSON.stringify(events.map((e) => (e.type === 'error' ? `error: ${e.message}` : e.type)))}`)), timeoutMs);
            waiters.push({ predicate, resolve: (e) => { clearTimeout(timer); res(e); } });
          }) as never;
        },
        send(content, o = {}) {
          clientCounter += 1;
          const clientId = o.clientId ?? `c${clientCounter}-${Date.now()}`;
          ws.send(JSON.stringify({ type: 'message', content, clientId, ...(o.recipientId ? { recipientId: o.recipientId } : {}) }));
          return clientId;
        },
        async close() {
          if (ws.readyState === ws.CLOSED) return;
          ws.close();
          await closed;
        },
        closed,
      };
      resolve(client);
    });
  });
}

export const isMessage = (pred: (m: Extract<ChatServerEvent, { type: 'message' }>['message']) => boolean) =>
  (e: ChatServerEvent): e is Extract<ChatServerEvent, { type: 'message' }> => e.type === 'message' && pred(e.message);
export const isAck = (clientId: string) => (e: ChatServerEvent): e is Extract<ChatServerEvent, { type: 'ack' }> => e.type === 'ack' && e.clientId === clientId;
export const isError = (e: ChatServerEvent): e is Extract<ChatServerEvent, { type: 'error' }> => e.type === 'error';

/** The Set-Cookie of a guest-session response as a Cookie header value. */
export function guestCookieOf(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const c = list.find((x) => x.startsWith('chat_guest='));
  if (!c) throw new Error('no guest cookie');
  return c.split(';')[0]!;
}
