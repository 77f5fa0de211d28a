// Chat texts and constants (SPEC §2, §5, §8, §9) shared by server and web. No zod here: the
// storefront's chat button imports this without pulling in the schemas.

export const CHAT_TEXTS = {
  title: 'Chat Support',
  welcome: 'Welcome to Chat',
  yourName: 'Your Name',
  yourEmail: 'Your Email',
  startChatting: 'Start Chatting',
  nameRequired: 'Please enter your name',
  emailInvalid: 'Please enter a valid email address',
  guestSessionFailed: 'Failed to create guest session. Please try again.',
  placeholder: 'Type your message...',
  send: 'Send',
  you: 'You',
  admin: 'Admin',
  ai: 'AI Assistant',
  online: 'Online',
  offline: 'Offline',
  toggleFailed: 'Failed to toggle admin status',
  noUsersOnline: 'No users online',
  backToUsers: '← Back to users',
  selectUser: 'Please select a user to chat with',
  newMessageTitle: 'New Message!',
  aiUnavailable: "I'm sorry, I couldn't process your message right now. Please try again later.",
  aiFailedDefault: 'Failed to get AI response',
  chatNotFound: 'Chat not found',
  fetchChatFailed: 'Failed to fetch chat details',
} as const;

export const onlineUsersTitle = (count: number) => `Online Users (${count})`;
export const chatWithTitle = (name: string) => `Chat with ${name}`;
export const newUserOnlineToast = (name: string) => `New user online: ${name}`;
export const aiErrorText = (message: string) => `Error: ${message}`;

/** SPEC §9. */
export const CHAT_RECONNECT_DELAY_MS = 5000;
export const CHAT_RECONNECT_MAX_ATTEMPTS = 5;
export const CHAT_PULSE_MS = 10_000;
export const CHAT_SOUND_VOLUME = 0.7;
export const CHAT_ADMIN_STATUS_POLL_MS = 30_000;
export const CHAT_MAX_MESSAGE_LENGTH = 2000;
/** The close code an instance uses when it stops: reconnect (to another instance) at once. */
export const CHAT_CLOSE_SERVICE_RESTART = 1012;
/**
 * The socket's rights changed (access token expired, the account was demoted): the client renews
 * its session (POST /api/users/refresh) and reconnects at once with the rights it has now.
 */
export const CHAT_CLOSE_REAUTHENTICATE = 4001;
/**
 * The session behind the socket ended (signed out, refresh tokens revoked, password changed,
 * account deleted, guest chat ended): the client does not reconnect and shows that it is signed out.
 */
export const CHAT_CLOSE_SIGNED_OUT = 4401;
/** Frames that are not valid chat messages, again and again: the client is broken; it may reconnect after the usual delay. */
export const CHAT_CLOSE_INVALID_FRAMES = 4400;
/** Too many chat sockets from one address. */
export const CHAT_CLOSE_TOO_MANY_SOCKETS = 4429;
/** Seconds a signed-in customer waits for an administrator before the assistant answers (CHAT_ADMIN_REPLY_SECONDS). */
export const CHAT_ADMIN_REPLY_SECONDS_DEFAULT = 30;
/** How often an administrator's visible chat tab sends an `activity` frame. */
export const CHAT_ACTIVITY_HEARTBEAT_MS = 15_000;
/** An administrator without an `activity` frame for this long is not online any more. */
export const CHAT_ADMIN_ACTIVITY_LAPSE_MS = 45_000;
/** Opens the assistant's answer when no administrator replied within CHAT_ADMIN_REPLY_SECONDS. */
export const CHAT_FALLBACK_NOTICE = 'No administrator could answer right away, so the AI Assistant is replying. An administrator will follow up on your message.';
/** The reply to a frame that is not a valid client frame. */
export const CHAT_INVALID_FRAME_MESSAGE = 'Invalid message';

/**
 * A product named in an assistant's message links to its page: `[Name](/product/slug)` (or
 * `/cj-product/slug`). The widget makes links of this markup only in the assistant's own messages
 * and only to these same-origin product paths; in anyone else's message it stays text.
 */
export const CHAT_PRODUCT_LINK_PATTERN = /\[([^[\]\n]{1,200})\]\((\/(?:product|cj-product)\/[A-Za-z0-9_-]{1,200})\)/g;
/** The markup of a product link in an assistant's message (brackets in the name become spaces). */
export const chatProductLink = (name: string, path: string) => `[${name.replace(/[[\]\n]/g, ' ').trim()}](${path})`;
/** The back office's mark on a conversation or lead whose person asked for a person or was upset (issue 36). */
export const WANTS_PERSON_LABEL = 'Wants a person';

/** SPEC §5: text, @, text, dot, text. */
export const GUEST_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ChatSender = 'user' | 'admin' | 'ai';

export interface ChatMessage {
  id: string;
  content: string;
  sender: ChatSender;
  timestamp: string;
  senderId: string;
  /** The customer or guest whose conversation this is. */
  userId: string;
  senderName: string;
  senderEmail: string;
  recipientId: string | null;
  clientId: string | null;
  /**
   * Only on an assistant's message: true when it answered because no administrator replied within
   * CHAT_ADMIN_REPLY_SECONDS (it says that an administrator will follow up); administrators see it.
   */
  fallback?: boolean;
}

export interface OnlineUser {
  id: string;
  name: string;
  email: string;
  lastSeen: string;
  isGuest: boolean;
}

export interface ChatSummary {
  _id: string;
  userId: string;
  userName: string;
  userEmail: string;
  isGuest: boolean;
  lastActivity: string;
  messageCount: number;
  messages: ChatMessage[];
  /** When the person asked the assistant for a person or was upset, until an administrator replies (WANTS_PERSON_LABEL). */
  wantsPersonAt?: string | null;
  /** Administrators' list only (GET chat/all-history): the customer's messages no administrator has read yet. */
  unread?: number;
}

/** Server → client over /ws/chat. */
export type ChatServerEvent =
  | { type: 'message'; message: ChatMessage }
  | { type: 'ack'; clientId: string; message: ChatMessage }
  | { type: 'error'; message: string; clientId?: string }
  | { type: 'admin-status'; isOnline: boolean }
  | { type: 'ping' }
  | { type: 'online-users'; users: OnlineUser[] }
  | { type: 'user-connected'; user: OnlineUser }
  | { type: 'hello'; user: { id: string; name: string; email: string; isAdmin: boolean; isGuest: boolean } }
  /**
   * Who answers this customer's messages now: an administrator (a person is online and has
   * `replyWithinSeconds` before the assistant steps in) or the assistant. Sent after hello and on
   * every change; the widget always shows it.
   */
  | { type: 'responder'; responder: 'admin' | 'ai'; replyWithinSeconds?: number }
  /**
   * Events may have been lost between instances (a Redis outage ended): the client fetches its
   * conversation again from the newest message it holds from before `since` (an ISO time the
   * server chose with a margin before the gap began), not from its newest message, since newer
   * ones may have arrived after the gap; messages are merged by id.
   */
  | { type: 'resync'; since: string };

/** Client → server over /ws/chat. */
export type ChatClientEvent =
  | { type: 'message'; content: string; clientId: string; recipientId?: string; userId?: string; sender?: string; senderId?: string; userEmail?: string; userName?: string }
  | { type: 'pong' }
  | { type: 'ping' }
  /** An administrator's tab is visible and at the chat (every CHAT_ACTIVITY_HEARTBEAT_MS). */
  | { type: 'activity' };
