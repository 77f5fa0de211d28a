import type { ChatClientFrame } from '@shop/contracts';
import {
  CHAT_ACTIVITY_HEARTBEAT_MS, CHAT_CLOSE_REAUTHENTICATE, CHAT_CLOSE_SERVICE_RESTART, CHAT_CLOSE_SIGNED_OUT, CHAT_RECONNECT_DELAY_MS,
  CHAT_RECONNECT_MAX_ATTEMPTS, type ChatMessage, type ChatServerEvent,
} from '@shop/contracts/chat-constants';
import { refreshSession } from '../../../lib/api-client';

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ChatConnectionOptions {
  url: string;
  /** Messages after the given id (or all when undefined): used after every (re)connect. */
  fetchMissed: (afterId: string | undefined) => Promise<ChatMessage[]>;
  onEvent?: (event: ChatServerEvent) => void;
  onChange?: () => void;
  createSocket?: (url: string) => SocketLike;
  reconnectDelayMs?: number;
  maxAttempts?: number;
  /**
   * After a 4001 close (access token expired, rights changed): renews the session; true when it
   * could (the socket reconnects at once), false when the person is signed out. Default: POST
   * users/refresh-token.
   */
  reauthenticate?: () => Promise<boolean>;
  /** Whether the person is at this tab (administrators' activity heartbeat). Default: the page is visible. */
  isActive?: () => boolean;
  activityIntervalMs?: number;
}

const pageVisible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

let clientCounter = 0;
export const newClientId = () => `${Date.now().toString(36)}-${(clientCounter += 1).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

const byTime = (a: ChatMessage, b: ChatMessage) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id);

/**
 * The chat socket with the spec's reconnect rule (5 s, at most 5 attempts, counter reset on open;
 * a 1012 "service restart" reconnects at once), an outbox of unacknowledged messages resent with
 * their client ids after a reconnect, and a catch-up fetch of what was missed since the last id
 * (after every open, and from before the gap when the server says `resync`). Messages are kept by
 * server id, so nothing shows twice.
 */
export class ChatConnection {
  status: ConnectionStatus = 'connecting';
  /** True once the server ended the session (4401, or a 4001 whose renewal failed): status is 'closed' and it does not reconnect. */
  signedOut = false;
  messages: ChatMessage[] = [];
  /** Sent but not yet acknowledged (shown as "sending"). */
  pending = new Map<string, { content: string; recipientId?: string }>();
  private socket: SocketLike | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private activityTimer: ReturnType<typeof setInterval> | null = null;
  /**
   * Where a catch-up that failed started (`after`: undefined is the whole conversation). It stays
   * until a fetch from there (or earlier) succeeds, so a failed fetch is retried from the same
   * point, never from a newer message that arrived meanwhile.
   */
  private catchUpFrom: { after: string | undefined } | null = null;
  private catchUpTimer: ReturnType<typeof setTimeout> | null = null;
  private catchUpFailures = 0;
  private readonly onVisible = () => { if (pageVisible()) this.sendActivity(); };
  private readonly opts: Required<Pick<ChatConnectionOptions, 'reconnectDelayMs' | 'maxAttempts'>> & ChatConnectionOptions;

  constructor(opts: ChatConnectionOptions) {
    this.opts = { reconnectDelayMs: CHAT_RECONNECT_DELAY_MS, maxAttempts: CHAT_RECONNECT_MAX_ATTEMPTS, ...opts };
    this.connect();
  }

  get lastId(): string | undefined {
    return this.messages.at(-1)?.id;
  }

  /** Adds messages (from the socket or a fetch), once each, in time order. */
  merge(incoming: ChatMessage[]) {
    let changed = false;
    for (const m of incoming) {
      if (this.messages.some((x) => x.id === m.id)) continue;
      this.messages.push(m);
      changed = true;
      if (m.clientId) this.pending.delete(m.clientId);
    }
    if (changed) {
      this.messages.sort(byTime);
      this.opts.onChange?.();
    }
  }

  /** Replaces the list (an administrator switching conversations). */
  reset(messages: ChatMessage[]) {
    this.messages = [...messages].sort(byTime);
    this.catchUpFrom = null;
    this.opts.onChange?.();
  }

  /** The newest message held from before `since` (ISO time): where a resync starts; undefined when there is none. */
  lastIdBefore(since: string): string | undefined {
    for (let i = this.messages.length - 1; i >= 0; i -= 1) {
      if (this.messages[i]!.timestamp < since) return this.messages[i]!.id;
    }
    return undefined;
  }

  /** Whether the catch-up point `a` is before `b` in the list (undefined: before everything). */
  private isBefore(a: string | undefined, b: string | undefined): boolean {
    if (a === b || b === undefined) return false;
    if (a === undefined) return true;
    const ia = this.messages.findIndex((m) => m.id === a);
    const ib = this.messages.findIndex((m) => m.id === b);
    return ia !== -1 && (ib === -1 || ia < ib);
  }

  /**
   * Fetches what was stored after `after` and merges it by id. A catch-up that failed from an
   * earlier point is retried from that point instead, so no gap is ever skipped.
   */
  private catchUp(after: string | undefined) {
    const failed = this.catchUpFrom;
    const from = failed && this.isBefore(failed.after, after) ? failed.after : after;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = null;
    void this.opts.fetchMissed(from).then((missed) => {
      // This fetch covered the failed point (it started there or earlier).
      if (this.catchUpFrom && !this.isBefore(this.catchUpFrom.after, from)) {
        this.catchUpFrom = null;
        this.catchUpFailures = 0;
      }
      this.merge(missed);
    }, () => {
      if (!this.catchUpFrom || this.isBefore(from, this.catchUpFrom.after)) this.catchUpFrom = { after: from };
      // Retried while the socket stays open (a reconnect catches up from the same point anyway).
      if (this.stopped || this.catchUpTimer || this.catchUpFailures >= this.opts.maxAttempts) return;
      this.catchUpFailures += 1;
      this.catchUpTimer = setTimeout(() => {
        this.catchUpTimer = null;
        const point = this.catchUpFrom;
        if (point && this.status === 'open') this.catchUp(point.after);
      }, this.opts.reconnectDelayMs);
    });
  }

  send(content: string, recipientId?: string): string | null {
    const text = content.trim();
    if (!text || this.status !== 'open' || !this.socket) return null;
    const clientId = newClientId();
    this.pending.set(clientId, { content: text, ...(recipientId ? { recipientId } : {}) });
    this.transmit(clientId);
    this.opts.onChange?.();
    return clientId;
  }

  close() {
    this.stopped = true;
    this.stopActivity();
    if (this.timer) clearTimeout(this.timer);
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.socket?.close(1000);
    this.socket = null;
  }

  private sendFrame(frame: ChatClientFrame) {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(frame));
  }

  private transmit(clientId: string) {
    const p = this.pending.get(clientId);
    if (!p || !this.socket) return;
    this.sendFrame({ type: 'message', content: p.content, clientId, ...(p.recipientId ? { recipientId: p.recipientId } : {}) });
  }

  private sendActivity() {
    if ((this.opts.isActive ?? pageVisible)()) this.sendFrame({ type: 'activity' });
  }

  /**
   * Administrators count as online only while their chat tab is in use: an `activity` frame at
   * once and every CHAT_ACTIVITY_HEARTBEAT_MS while the page is visible, and as soon as it becomes
   * visible again (the server lets it lapse after CHAT_ADMIN_ACTIVITY_LAPSE_MS).
   */
  private startActivity() {
    if (this.activityTimer) return;
    this.sendActivity();
    this.activityTimer = setInterval(() => this.sendActivity(), this.opts.activityIntervalMs ?? CHAT_ACTIVITY_HEARTBEAT_MS);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.onVisible);
  }

  private stopActivity() {
    if (this.activityTimer) clearInterval(this.activityTimer);
    this.activityTimer = null;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.onVisible);
  }

  private setStatus(status: ConnectionStatus) {
    this.status = status;
    this.opts.onChange?.();
  }

  private connect() {
    if (this.stopped) return;
    const socket = this.opts.createSocket ? this.opts.createSocket(this.opts.url) : (new WebSocket(this.opts.url) as unknown as SocketLike);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.catchUpFailures = 0;
      this.setStatus('open');
      // The last id is read now, before anything arrives on the new socket.
      this.catchUp(this.lastId);
      for (const clientId of this.pending.keys()) this.transmit(clientId);
    };
    socket.onmessage = (ev) => {
      let event: ChatServerEvent;
      try { event = JSON.parse(String(ev.data)) as ChatServerEvent; } catch { return; }
      if (event.type === 'ping') this.sendFrame({ type: 'pong' });
      else if (event.type === 'hello' && event.user.isAdmin) this.startActivity();
      else if (event.type === 'message') this.merge([event.message]);
      else if (event.type === 'ack') { this.pending.delete(event.clientId); this.merge([event.message]); }
      else if (event.type === 'error' && event.clientId) { this.pending.delete(event.clientId); this.opts.onChange?.(); }
      // Events were lost between the server's instances (a Redis outage) while this socket stayed
      // open: catch up from the newest message held from before the gap, not the newest one (newer
      // messages may have arrived after the gap).
      else if (event.type === 'resync') this.catchUp(this.lastIdBefore(event.since));
      this.opts.onEvent?.(event);
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopActivity();
      if (this.stopped) return;
      if (ev.code === CHAT_CLOSE_SIGNED_OUT) {
        this.signedOut = true;
        this.setStatus('closed');
        return;
      }
      if (ev.code === CHAT_CLOSE_REAUTHENTICATE) {
        // Renew the session, then reconnect at once with the rights the account has now.
        this.setStatus('reconnecting');
        void (this.opts.reauthenticate ?? refreshSession)().catch(() => false).then((ok) => {
          if (this.stopped) return;
          if (!ok) {
            this.signedOut = true;
            this.setStatus('closed');
            return;
          }
          this.connect();
        });
        return;
      }
      if (this.attempts >= this.opts.maxAttempts) {
        this.setStatus('closed');
        return;
      }
      this.attempts += 1;
      this.setStatus('reconnecting');
      const delay = ev.code === CHAT_CLOSE_SERVICE_RESTART ? 0 : this.opts.reconnectDelayMs;
      this.timer = setTimeout(() => this.connect(), delay);
    };
    socket.onerror = () => undefined;
  }
}

export function chatSocketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/chat`;
}
