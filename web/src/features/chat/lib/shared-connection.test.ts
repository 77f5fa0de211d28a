import { CHAT_CLOSE_SIGNED_OUT, type ChatMessage } from '@shop/contracts/chat-constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './fake-socket';
import { acquireChatConnection, closeChatConnections, RELEASE_GRACE_MS } from './shared-connection';

/** A FakeSocket that also reports 'close' to addEventListener listeners, as a browser WebSocket does. */
class ListenedSocket extends FakeSocket {
  closeListeners: Array<(ev: { code: number }) => void> = [];
  addEventListener(type: string, listener: (ev: { code: number }) => void) { if (type === 'close') this.closeListeners.push(listener); }
  override drop(code = 1006) {
    this.readyState = 3;
    for (const l of this.closeListeners) l({ code });
    this.onclose?.({ code });
  }
  override close() { this.readyState = 3; }
}

const message = (id: string, userId = 'u1'): ChatMessage => ({
  id, content: id, sender: 'user', timestamp: `2026-01-02T10:00:0${id}.000Z`, senderId: userId, userId, senderName: 'U', senderEmail: 'u@example.com', recipientId: null, clientId: null,
});

beforeEach(() => {
  vi.useFakeTimers();
  closeChatConnections();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', ListenedSocket);
});
afterEach(() => {
  closeChatConnections();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the tab\'s shared chat connection', () => {
  it('one socket per identity for every listener: events reach each, their catch-ups are merged', async () => {
    const a = { onEvent: vi.fn(), fetchMissed: vi.fn(async () => [message('1')]) };
    const b = { onEvent: vi.fn(), fetchMissed: vi.fn(async () => [message('2'), message('1')]) };
    const first = acquireChatConnection('admin:x', a);
    const second = acquireChatConnection('admin:x', b);
    expect(second.connection).toBe(first.connection);
    expect(FakeSocket.all).toHaveLength(1);
    FakeSocket.all[0]!.open();
    await vi.waitFor(() => expect(first.connection.messages.map((m) => m.id)).toEqual(['1', '2']));
    expect(a.fetchMissed).toHaveBeenCalledWith(undefined);
    FakeSocket.all[0]!.receive({ type: 'admin-status', isOnline: true });
    expect(a.onEvent).toHaveBeenCalledWith({ type: 'admin-status', isOnline: true });
    expect(b.onEvent).toHaveBeenCalledWith({ type: 'admin-status', isOnline: true });
  });

  it('outlives its last listener for RELEASE_GRACE_MS: the widget hands it to the back office without a new socket', () => {
    const widget = acquireChatConnection('admin:x', {});
    FakeSocket.all[0]!.open();
    widget.release();
    vi.advanceTimersByTime(RELEASE_GRACE_MS - 1);
    const backOffice = acquireChatConnection('admin:x', {});
    expect(backOffice.connection).toBe(widget.connection);
    expect(FakeSocket.all).toHaveLength(1);
    backOffice.release();
    backOffice.release(); // twice changes nothing
    vi.advanceTimersByTime(RELEASE_GRACE_MS);
    expect(FakeSocket.all[0]!.readyState).toBe(3);
    const later = acquireChatConnection('admin:x', {});
    expect(later.connection).not.toBe(widget.connection);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('another identity takes the tab over: an unused connection of the one before closes at once', () => {
    const admin = acquireChatConnection('admin:x', {});
    admin.release();
    acquireChatConnection('customer:y', {});
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[0]!.readyState).toBe(3);
    expect(admin.connection.status).not.toBe('open');
  });

  it('signed out (4401): every listener hears it, the socket does not come back, and the next taker gets a new connection', () => {
    const onClosed = vi.fn();
    const held = acquireChatConnection('customer:y', { onClosed });
    FakeSocket.all[0]!.open();
    (FakeSocket.all[0] as ListenedSocket).drop(CHAT_CLOSE_SIGNED_OUT);
    expect(onClosed).toHaveBeenCalledWith(CHAT_CLOSE_SIGNED_OUT);
    expect(held.connection.status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    held.release();
    const next = acquireChatConnection('customer:y', {});
    expect(next.connection).not.toBe(held.connection);
    expect(FakeSocket.all).toHaveLength(2);
  });
});
