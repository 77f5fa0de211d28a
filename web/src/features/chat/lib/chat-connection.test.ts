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

  it('resync (events lost between server instances): catches up from the newest message held from before the gap, though newer ones arrived first', async () => {
    // 03 and 04 were stored during a Redis outage and never fanned out; 05 arrived live after it.
    const stored = [msg('01'), msg('02'), msg('03', { sender: 'admin', senderId: 'a' }), msg('04'), msg('05', { sender: 'admin', senderId: 'a' })];
    const fetchMissed = vi.fn(async (after: string | undefined) => stored.slice(after ? stored.findIndex((m) => m.id === after) + 1 : 0));
    const { conn } = make(fetchMissed);
    const s = FakeSocket.all[0]!;
    s.open();
    await vi.waitFor(() => expect(fetchMissed).toHaveBeenCalledTimes(1));
    conn.reset([]);
    s.receive({ type: 'message', message: stored[0] });
    s.receive({ type: 'message', message: stored[1] });
    s.receive({ type: 'message', message: stored[4] });
    expect(conn.lastId).toBe('05'); // a catch-up "after the last id" would return nothing
    s.receive({ type: 'resync', since: '2026-01-01T00:00:02.500Z' });
    expect(fetchMissed).toHaveBeenLastCalledWith('02');
    await vi.waitFor(() => expect(conn.messages.map((m) => m.id)).toEqual(['01', '02', '03', '04', '05']));
    // Nothing held from before the gap: the whole conversation, still each message once.
    s.receive({ type: 'resync', since: '2025-12-31T00:00:00.000Z' });
    expect(fetchMissed).toHaveBeenLastCalledWith(undefined);
    await vi.waitFor(() => expect(fetchMissed).toHaveBeenCalledTimes(3));
    await Promise.resolve();
    expect(conn.messages.map((m) => m.id)).toEqual(['01', '02', '03', '04', '05']);
    expect(FakeSocket.all).toHaveLength(1); // no reconnect needed
  });

  it('a catch-up that fails is retried from the same point, not from newer messages that arrived meanwhile', async () => {
    let fail = false;
    const all = [msg('01'), msg('02'), msg('03')];
    let storedCount = 1;
    const fetchMissed = vi.fn(async (after: string | undefined) => {
      if (fail) throw new Error('offline');
      const stored = all.slice(0, storedCount);
      return stored.slice(after ? stored.findIndex((m) => m.id === after) + 1 : 0);
    });
    const { conn } = make(fetchMissed);
    const s1 = FakeSocket.all[0]!;
    s1.open();
    await vi.waitFor(() => expect(conn.messages.map((m) => m.id)).toEqual(['01']));
    s1.drop();
    storedCount = 2; // 02 is stored while this client is away
    fail = true;
    vi.advanceTimersByTime(5000);
    const s2 = FakeSocket.all[1]!;
    s2.open(); // the catch-up after 01 fails
    expect(fetchMissed).toHaveBeenLastCalledWith('01');
    await vi.advanceTimersByTimeAsync(0);
    storedCount = 3;
    s2.receive({ type: 'message', message: all[2] }); // 03 arrives live; 02 is still missing
    expect(conn.lastId).toBe('03');
    fail = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchMissed).toHaveBeenLastCalledWith('01');
    await vi.waitFor(() => expect(conn.messages.map((m) => m.id)).toEqual(['01', '02', '03']));
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
