import { z } from 'zod';
import { CHAT_TEXTS, GUEST_EMAIL_PATTERN } from './chat-constants.ts';

export * from './chat-constants.ts';
export * from './chat-frames.ts';

export const chatMessageSchema = z.object({
  id: z.string(),
  content: z.string(),
  sender: z.enum(['user', 'admin', 'ai']),
  timestamp: z.string(),
  senderId: z.string(),
  userId: z.string(),
  senderName: z.string(),
  senderEmail: z.string(),
  recipientId: z.string().nullable(),
  clientId: z.string().nullable(),
  fallback: z.boolean().optional(),
});

export const guestSessionBodySchema = z.object({
  name: z.string({ error: CHAT_TEXTS.nameRequired }).trim().min(1, CHAT_TEXTS.nameRequired).max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: CHAT_TEXTS.emailInvalid }).trim().max(254, CHAT_TEXTS.emailInvalid).regex(GUEST_EMAIL_PATTERN, CHAT_TEXTS.emailInvalid),
});
export type GuestSessionBody = z.infer<typeof guestSessionBodySchema>;

export const chatSummarySchema = z.object({
  _id: z.string(),
  userId: z.string(),
  userName: z.string(),
  userEmail: z.string(),
  isGuest: z.boolean(),
  lastActivity: z.string(),
  messageCount: z.number().int(),
  messages: z.array(chatMessageSchema),
  /** When the person asked the assistant for a person or was upset, until an administrator replied (issue 36). */
  wantsPersonAt: z.string().nullable().optional(),
  /** Administrators' list only: the customer's messages no administrator has read yet. */
  unread: z.number().int().optional(),
});
export type ChatSummaryParsed = z.infer<typeof chatSummarySchema>;

/** POST chat/chat/{id}/read: the newest message of the conversation the administrator has seen. */
export const markChatReadBodySchema = z.object({
  messageId: z.string({ error: 'messageId is required' }).trim().min(1, 'messageId is required').max(64, 'messageId is too long'),
});
export type MarkChatReadBody = z.infer<typeof markChatReadBodySchema>;

export const onlineUserSchema = z.object({
  id: z.string(), name: z.string(), email: z.string(), lastSeen: z.string(), isGuest: z.boolean(),
});
