import type { ChatMessage, ChatServerEvent } from '@shop/contracts/chat-constants';
import { ChatConnection, chatSocketUrl, type ChatConnectionOptions } from './chat-connection';

/** What one part of the page (the widget, the back office, its chat page) wants from the tab's chat socket. */
export interface ConnectionListener {
  onEvent?: (event: ChatServerEvent) => void;
  onChange?: () => void;
  /** The socket closed with this code (CHAT_CLOSE_SIGNED_OUT: the session ended). */
  onClosed?: (code: number) => void;
  /** What was missed while the socket was away (asked after every open): every listener's answer is merged. */
  fetchMissed?: (afterId: string | undefined) => Promise<ChatMessage[]>;
}

/**
 * How long a connection nobody listens to stays open: an administrator moving between the storefront
 * (its chat widget) and the back office (its chat pages) keeps the one socket, even when the back
 * office's code has to load first.
 */
export const RELEASE_GRACE_MS = 10_000;

type SocketLike = ReturnType<NonNullable<ChatConnectionOptions['createSocket']>>;

interface Entry {
  connection: ChatConnection;
  listeners: Set<ConnectionListener>;
  closeTimer: ReturnType<typeof setTimeout> | null;
}

/** The tab's chat connections by identity ('admin:<id>', 'customer:<id>', 'guest:<id>'): one socket each, shared by every listener. */
const entries = new Map<string, Entry>();

/**
 * A browser socket that also reports its close code (the chat connection keeps its own onclose),
 * so the listeners learn of a CHAT_CLOSE_SIGNED_OUT close (the widget shows that the person is signed out).
 */
function observedSocket(url: string, onClosed: (code: number) => void): SocketLike {
  const socket = new WebSocket(url);
  (socket as Partial<Pick<WebSocket, 'addEventListener'>>).addEventListener?.('close', (ev) => onClosed(ev.code));
  return socket as unknown as SocketLike;
}

function closeEntry(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  if (entry.closeTimer) clearTimeout(entry.closeTimer);
  entries.delete(key);
  entry.connection.close();
}

function openEntry(key: string): Entry {
  const listeners = new Set<ConnectionListener>();
  const each = (f: (l: ConnectionListener) => void) => { for (const l of [...listeners]) f(l); };
  const entry: Entry = { listeners, closeTimer: null, connection: null as unknown as ChatConnection };
  entry.connection = new ChatConnection({
    url: chatSocketUrl(),
    fetchMissed: async (after) => (await Promise.all([...listeners].map((l) => l.fetchMissed?.(after) ?? Promise.resolve([])))).flat(),
    onEvent: (e) => each((l) => l.onEvent?.(e)),
    onChange: () => each((l) => l.onChange?.()),
    // A CHAT_CLOSE_SIGNED_OUT close ends the connection for good (ChatConnection: signedOut, no reconnecting).
    createSocket: (url) => observedSocket(url, (code) => each((l) => l.onClosed?.(code))),
  });
  entries.set(key, entry);
  return entry;
}

/**
 * The tab's chat connection for an identity, opened on first use and shared: the widget and the back
 * office's pages listen to one socket, never one each. `release` stops listening; the socket closes
 * RELEASE_GRACE_MS after its last listener left (at once when another identity takes the tab over).
 */
export function acquireChatConnection(key: string, listener: ConnectionListener): { connection: ChatConnection; release: () => void } {
  // Another identity's unused connection (signed out, signed in as someone else) goes now.
  for (const [other, e] of entries) if (other !== key && e.listeners.size === 0) closeEntry(other);
  let entry = entries.get(key);
  // A connection that ended (signed out, gave up reconnecting) and nobody holds is replaced by a new one.
  if (entry && entry.listeners.size === 0 && entry.connection.status === 'closed') {
    closeEntry(key);
    entry = undefined;
  }
  entry ??= openEntry(key);
  if (entry.closeTimer) clearTimeout(entry.closeTimer);
  entry.closeTimer = null;
  entry.listeners.add(listener);
  const held = entry;
  let released = false;
  return {
    connection: held.connection,
    release: () => {
      if (released) return;
      released = true;
      held.listeners.delete(listener);
      if (held.listeners.size > 0 || entries.get(key) !== held) return;
      held.closeTimer = setTimeout(() => closeEntry(key), RELEASE_GRACE_MS);
    },
  };
}

/** Closes every connection of the tab at once (tests start each case without one). */
export function closeChatConnections(): void {
  for (const key of [...entries.keys()]) closeEntry(key);
}
