import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { newGuestId, signGuestSession } from '../../server/src/modules/chat/guest-session.ts';

export interface ChatTally {
  chatAcked: Map<string, string>; // clientId → server message id
  chatSent: number;
  chatResent: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A chat guest for the crash benchmarks: sends a message every `pauseMs`–2×`pauseMs` while `running()`;
 * when its socket drops (its instance killed) it reconnects and resends what was not acknowledged,
 * as the widget does. Returns how many messages were still unacknowledged at the end.
 */
export async function resendingChatGuest(opts: {
  wsUrl: string; secret: string; name: string; email: string; idPrefix: string; pauseMs: number;
  running: () => boolean; tally: ChatTally;
}): Promise<number> {
  const { tally: t, running } = opts;
  const cookie = `chat_guest=${signGuestSession(opts.secret, { guestId: newGuestId(), name: opts.name, email: opts.email, timestamp: Date.now() })}`;
  const pending = new Map<string, string>(); // clientId → content, until acknowledged
  let n = 0;
  while (running()) {
    const ws = await new Promise<WebSocket | null>((resolve) => {
      const s = new WebSocket(opts.wsUrl, { headers: { cookie } });
      s.once('open', () => resolve(s));
      s.once('error', () => resolve(null));
      s.once('unexpected-response', () => resolve(null));
    });
    if (!ws) { await sleep(300); continue; }
    ws.on('error', () => {});
    ws.on('message', (raw) => {
      let e: { type?: string; clientId?: string; message?: { id: string } };
      try { e = JSON.parse(String(raw)) as typeof e; } catch { return; }
      if (e.type === 'ping') ws.send('{"type":"pong"}');
      if (e.type === 'ack' && e.clientId && e.message) { t.chatAcked.set(e.clientId, e.message.id); pending.delete(e.clientId); }
    });
    for (const [clientId, content] of pending) { ws.send(JSON.stringify({ type: 'message', content, clientId })); t.chatResent += 1; }
    while (running() && ws.readyState === WebSocket.OPEN) {
      const clientId = `${opts.idPrefix}-${randomBytes(6).toString('hex')}`;
      const content = `message ${n++} about shipping`;
      pending.set(clientId, content);
      ws.send(JSON.stringify({ type: 'message', content, clientId }));
      t.chatSent += 1;
      await sleep(opts.pauseMs + Math.random() * opts.pauseMs);
    }
    if (ws.readyState === WebSocket.OPEN) { await sleep(1500); ws.close(); } // the last acks
  }
  return pending.size;
}
