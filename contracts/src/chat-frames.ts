import { z } from 'zod';

// The frames a client may send over /ws/chat, one schema per type (issue 19). The server answers
// anything else with `{ type: 'error', message: 'Invalid message' }`; the web client builds its
// frames from the same types. Unknown extra keys are ignored (stripped), wrong types are refused.

const id = z.string().min(1).max(100);

/** A chat message. Administrators name the conversation with `recipientId` (or `userId`). */
export const chatMessageFrameSchema = z.object({
  type: z.literal('message'),
  content: z.string().max(100_000),
  clientId: id.optional(),
  recipientId: id.optional(),
  userId: id.optional(),
  // Sent by older clients; ignored by the server (the sender is the socket's identity).
  sender: z.string().max(100).optional(),
  senderId: z.string().max(100).optional(),
  userEmail: z.string().max(300).optional(),
  userName: z.string().max(300).optional(),
});

/** The answer to the server's `ping`. */
export const chatPongFrameSchema = z.object({ type: z.literal('pong') });

/** A client's own keep-alive: answered with `pong`. */
export const chatPingFrameSchema = z.object({ type: z.literal('ping') });

/**
 * An administrator is at the chat (its tab visible): sent every CHAT_ACTIVITY_HEARTBEAT_MS. An
 * administrator counts as online only while these keep coming (lapse CHAT_ADMIN_ACTIVITY_LAPSE_MS).
 */
export const chatActivityFrameSchema = z.object({ type: z.literal('activity') });

export const chatClientFrameSchema = z.discriminatedUnion('type', [
  chatMessageFrameSchema, chatPongFrameSchema, chatPingFrameSchema, chatActivityFrameSchema,
]);

export type ChatMessageFrame = z.infer<typeof chatMessageFrameSchema>;
export type ChatClientFrame = z.infer<typeof chatClientFrameSchema>;
export const CHAT_CLIENT_FRAME_TYPES = ['message', 'pong', 'ping', 'activity'] as const;
