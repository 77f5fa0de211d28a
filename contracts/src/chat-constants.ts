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
  | { type: 'hello'; user: { id: string; name: string; email: string; isAdmin: boolean; isGuest: boolean } };

/** Client → server over /ws/chat. */
export type ChatClientEvent =
  | { type: 'message'; content: string; clientId: string; recipientId?: string; userId?: string; sender?: string; senderId?: string; userEmail?: string; userName?: string }
  | { type: 'pong' }
  | { type: 'ping' };
