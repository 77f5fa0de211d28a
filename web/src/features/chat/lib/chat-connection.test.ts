import type { ChatMessage } from '@shop/contracts/chat-constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatConnection } from './chat-connection';
import { FakeSocket } from './fake-socket';

const msg = (id: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id, content: `m${id}`, sender: 'user', timestamp: `2026-01-01T00:00:${id.padStart(2, '0')}.000Z`, senderId: 'u1', userId: 'u1',
  senderName: 'U', senderEmail: 'u@example.com', recipientId: null, clientId: null, ...over,
});

describe('ChatConnection', () => {
  beforeEach(() => { vi.useFakeTimers(); FakeSocket.all = []; });
  afterEach(() => { vi.useRealTimers(); });
  const make = (fetchMissed = vi.fn(async (_after: string | undefined) => [] as ChatMessage[])) =>
    ({ conn: new ChatConnection({ url: 'ws://x/ws/chat', fetchMissed, createSocket: () => new FakeSocket() }), fetchMissed });

  it('retries every 5 s, at most 5 times; the counter resets when a connection opens', () => {
    const { conn } = make();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop();
    expect(conn.status).toBe('reconnecting');
    vi.advanceTimersByTime(4999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open(); // resets the counter
    FakeSocket.all[1]!.drop();
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(5000);
      FakeSocket.all.at(-1)!.drop();
    }
    expect(FakeSocket.all).toHaveLength(7); // 1 + 1 + 5 attempts
    expect(conn.status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(7);
  });

  it('reconnects at once after 1012 (an instance restarting)', () => {
    make();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1012);
    vi.advanceTimersByTime(0);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('resends unacknowledged messages with the same client id, fetches what was missed after the last id, and shows nothing twice', async () => {
    const fetchMissed = vi.fn(async (after: string | undefined) => (after === '02' ? [msg('02'), msg('03', { sender: 'admin', senderId: 'a' })] : []));
    const { conn } = make(fetchMissed);
    const s1 = FakeSocket.all[0]!;
    s1.open();
    s1.receive({ type: 'message', message: msg('01') });
    s1.receive({ type: 'message', message: msg('02') });
    const clientId = conn.send('hello')!;
    expect(JSON.parse(s1.sent.at(-1)!)).toEqual({ type: 'message', content: 'hello', clientId });
    s1.drop();
    expect(conn.send('while down')).toBeNull(); // Send is disabled while disconnected
    vi.advanceTimersByTime(5000);
    const s2 = FakeSocket.all[1]!;
    s2.open();
    expect(JSON.parse(s2.sent[0]!)).toEqual({ type: 'message', content: 'hello', clientId });
    await vi.waitFor(() => expect(conn.messages.map((m) => m.id)).toEqual(['01', '02', '03']));
    expect(fetchMissed).toHaveBeenLastCalledWith('02');
    s2.receive({ type: 'ack', clientId, message: msg('04', { clientId, content: 'hello' }) });
    s2.receive({ type: 'message', message: msg('04', { clientId, content: 'hello' }) });
    expect(conn.messages.map((m) => m.id)).toEqual(['01', '02', '03', '04']);
    expect(conn.pending.size).toBe(0);
  });

  it('answers the server ping with pong and ignores empty messages', () => {
    const { conn } = make();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.receive({ type: 'ping' });
    expect(FakeSocket.all[0]!.sent).toEqual([JSON.stringify({ type: 'pong' })]);
    expect(conn.send('   ')).toBeNull();
  });

  it('an administrator sends activity at once and every 15 s while the page is in use; customers never do', () => {
    let active = true;
    const conn = new ChatConnection({ url: 'ws://x/ws/chat', fetchMissed: async () => [], createSocket: () => new FakeSocket(), isActive: () => active });
    const s = FakeSocket.all[0]!;
    s.open();
    const activity = () => s.sent.filter((f) => JSON.parse(f).type === 'activity').length;
    s.receive({ type: 'hello', user: { id: 'a', name: 'A', email: 'a@example.com', isAdmin: false, isGuest: false } });
    vi.advanceTimersByTime(60_000);
    expect(activity()).toBe(0);
    s.receive({ type: 'hello', user: { id: 'a', name: 'A', email: 'a@example.com', isAdmin: true, isGuest: false } });
    expect(activity()).toBe(1);
    vi.advanceTimersByTime(15_000);
    expect(activity()).toBe(2);
    active = false; // tab hidden: no heartbeat, so the server lets the administrator lapse
    vi.advanceTimersByTime(45_000);
    expect(activity()).toBe(2);
    active = true;
    vi.advanceTimersByTime(15_000);
    expect(activity()).toBe(3);
    s.drop();
    vi.advanceTimersByTime(60_000);
    expect(activity()).toBe(3); // stopped with the socket
    conn.close();
  });

  it('4401 (signed out): no reconnect; 4001: renews the session and reconnects at once, or shows signed out when it cannot', async () => {
    const { conn } = make();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(conn.status).toBe('closed');
    expect(conn.signedOut).toBe(true);

    FakeSocket.all = [];
    let renewed = true;
    const reauthenticate = vi.fn(async () => renewed);
    const conn2 = new ChatConnection({ url: 'ws://x/ws/chat', fetchMissed: async () => [], createSocket: () => new FakeSocket(), reauthenticate });
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4001);
    await vi.waitFor(() => expect(FakeSocket.all).toHaveLength(2));
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    FakeSocket.all[1]!.open();
    renewed = false;
    FakeSocket.all[1]!.drop(4001);
    await vi.waitFor(() => expect(conn2.signedOut).toBe(true));
    expect(conn2.status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });
});
