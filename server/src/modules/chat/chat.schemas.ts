import {
  chatMessageSchema, chatSummarySchema, errorResponseSchema, guestSessionBodySchema, idSchema, markChatReadBodySchema, messageResponseSchema, wholeNumberParam,
} from '@shop/contracts';
import { z } from 'zod';

const messages = z.object({ messages: z.array(chatMessageSchema) });
const afterQuery = z.object({ after: z.string().max(64).optional() });
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 429: errorResponseSchema };

export const verifyGuestSchema = {
  tags: ['chat'],
  response: {
    200: z.union([
      z.object({ success: z.literal(true), guestId: z.string(), name: z.string(), email: z.string() }),
      z.object({ success: z.literal(false) }),
    ]),
  },
};

export const guestSessionSchema = {
  tags: ['chat'],
  body: guestSessionBodySchema,
  response: { 200: z.object({ name: z.string(), guestId: z.string() }), ...errors },
};

export const endGuestSessionSchema = { tags: ['chat'], response: { 200: messageResponseSchema } };

export const saveMessageSchema = {
  tags: ['chat'],
  body: z.object({
    message: z.object({
      content: z.string({ error: 'content is required' }).max(100_000),
      clientId: z.string().min(1).max(100).optional(),
      recipientId: z.string().max(100).optional(),
      userId: z.string().max(100).optional(),
    }),
  }),
  response: { 200: z.object({ message: chatMessageSchema.nullable() }), 201: z.object({ message: chatMessageSchema.nullable() }), ...errors },
};

export const userMessagesSchema = {
  tags: ['chat'],
  params: z.object({ userId: z.string().min(1).max(100) }),
  querystring: afterQuery,
  response: { 200: messages, ...errors },
};

export const historySchema = { tags: ['chat'], querystring: afterQuery, response: { 200: z.array(chatSummarySchema), ...errors } };

export const guestHistorySchema = {
  tags: ['chat'],
  querystring: afterQuery.extend({ guestId: z.string({ error: 'guestId is required' }).min(1, 'guestId is required').max(100) }),
  response: { 200: messages, ...errors },
};

export const adminStatusSchema = { tags: ['chat'], response: { 200: z.object({ isOnline: z.boolean() }) } };

export const toggleAdminStatusSchema = {
  tags: ['chat'],
  body: z.object({ isOnline: z.boolean().optional() }).optional(),
  response: { 200: z.object({ isOnline: z.boolean(), message: z.string() }), ...errors },
};

export const aiResponseSchema = {
  tags: ['chat'],
  body: z.object({
    message: z.string({ error: 'message is required' }).max(100_000),
    userId: z.string().max(100).optional(),
    userEmail: z.string().max(254).optional(),
    userName: z.string().max(100).optional(),
  }),
  response: { 200: z.object({ response: z.string() }), ...errors },
};

export const allHistorySchema = {
  tags: ['chat'],
  querystring: z.object({
    search: z.string().max(100).optional(),
    page: wholeNumberParam({ fallback: 1, min: 1, max: 10_000, message: 'page must be a whole number from 1 to 10000' }),
  }),
  response: {
    200: z.object({
      chats: z.array(chatSummarySchema), page: z.number(), pages: z.number(), total: z.number(),
      /** Conversations with messages no administrator has read (all of them, whatever the search). */
      unreadConversations: z.number().int(),
    }),
    ...errors,
  },
};

export const chatByIdSchema = {
  tags: ['chat'],
  params: z.object({ id: z.string().max(64) }),
  response: { 200: chatSummarySchema, ...errors },
};

export const markChatReadSchema = {
  tags: ['chat'],
  params: z.object({ id: z.string().max(64) }),
  body: markChatReadBodySchema,
  response: { 200: z.object({ unread: z.number().int() }), ...errors },
};

export const onlineUsersSchema = {
  tags: ['chat'],
  response: { 200: z.object({ users: z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), lastSeen: z.string(), isGuest: z.boolean() })) }), ...errors },
};

export { idSchema };
