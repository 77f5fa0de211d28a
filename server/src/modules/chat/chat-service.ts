import { CHAT_FALLBACK_NOTICE, type ChatMessage } from '@shop/contracts';
import { and, eq, gte, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { users } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { badRequest, notFound, tooManyRequests } from '../../lib/errors.ts';
import { recordLeadActivity } from '../leads/index.ts';
import type { Assistant } from './assistant/answer.ts';
import { welcomeGreeting } from './assistant/built-in-assistant.ts';
import { createAssistant } from './assistant/answer.ts';
import { createShopTools } from './assistant/shop-tools.ts';
import { interestSignalOf } from './chat-leads.ts';
import { createChatHub, type ChatHub, type ChatIdentity } from './chat-hub.ts';
import { presentMessage } from './chat.presenter.ts';
import { advanceReadMark } from './mark-read.ts';
import { storeMessage } from './store-message.ts';
import { chatConversations, chatMessages } from '../../db/schema.ts';
import { enqueueJob } from '../../lib/jobs.ts';

/**
 * The wait for an administrator's reply to a signed-in customer's message (CHAT_ADMIN_REPLY_SECONDS):
 * a durable job, claimed once across instances and kept over a restart.
 */
export const CHAT_REPLY_WAIT_JOB = 'chat.admin-reply-wait';

const LEAD_REFRESH_MS = 30_000;

export const TOO_MANY_MESSAGES = 'Too many messages. Please wait a moment and try again.';
export const TOO_MANY_AI_REQUESTS = 'Too many questions to the AI Assistant. Please wait a minute and try again.';
export const messageTooLong = (max: number) => `Message is too long (at most ${max} characters)`;
export const RECIPIENT_REQUIRED = 'Please select a user to chat with';

export interface SendInput {
  content: string;
  clientId?: string | undefined;
  /** For administrators: the customer or guest the reply goes to. */
  recipientId?: string | undefined;
}

export interface SendResult {
  /** null when the message was empty or whitespace (ignored, SPEC §5). */
  message: ChatMessage | null;
  isDuplicate: boolean;
  /** Resolves when the AI answer (if any) has been stored and delivered. */
  reply: Promise<ChatMessage | null>;
}

export interface ChatService {
  hub: ChatHub;
  assistant: Assistant;
  send(identity: ChatIdentity, input: SendInput, ip: string): Promise<SendResult>;
  greetGuest(identity: ChatIdentity): Promise<ChatMessage | null>;
  /** Answers a question without storing it (POST chat/ai-response). */
  answer(identity: ChatIdentity, text: string): Promise<string>;
  limitAi(identity: ChatIdentity): Promise<void>;
}

/** How the assistant's messages are signed (sender 'ai'). */
export const AI_SENDER = { senderId: 'ai', senderName: 'AI Assistant', senderEmail: '' };

/** The chat's use cases (send, route, answer), shared by the websocket and REST. */
export function createChatService(ctx: AppContext, log: FastifyBaseLogger, opts: { fetchImpl?: typeof fetch } = {}): ChatService {
  const { db, config, rateLimiter } = ctx;
  const hub = createChatHub({
    redis: ctx.redis,
    isRedisUp: () => ctx.redisHealth.isUp(),
    // The outage itself is reported once by redisHealth; each absorbed command only at debug.
    onError: (err, what) => log.debug({ err, what }, 'chat: shared state unavailable, kept on this instance'),
  });
  const tools = createShopTools(db);
  const llm = config.llm.baseUrl
    ? { baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model, timeoutMs: config.llm.timeoutMs }
    : undefined;
  const assistant = createAssistant({ tools, llm, log, ...(opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {}) });
  const limits = config.chat;

  async function limitAi(identity: ChatIdentity) {
    const r = await rateLimiter.hit(`chat:ai:${identity.id}`, limits.aiRequestsPerMinute, 60);
    if (!r.allowed) throw tooManyRequests(TOO_MANY_AI_REQUESTS);
  }

  async function resolveRecipient(recipientId: string) {
    const [conversation] = await db.select().from(chatConversations).where(eq(chatConversations.userId, recipientId)).limit(1);
    if (conversation) return { id: conversation.userId, name: conversation.userName, email: conversation.userEmail, isGuest: conversation.isGuest };
    if (/^[0-9a-f]{24}$/.test(recipientId)) {
      const [u] = await db.select({ id: users.id, name: users.name, email: users.email, isAdmin: users.isAdmin }).from(users).where(eq(users.id, recipientId)).limit(1);
      if (u && !u.isAdmin) return { id: u.id, name: u.name, email: u.email, isGuest: false };
    }
    const online = (await hub.onlineUsers()).find((u) => u.id === recipientId);
    if (online) return { id: online.id, name: online.name, email: online.email, isGuest: online.isGuest };
    throw notFound('User not found');
  }

  // A lead row is written at most every LEAD_REFRESH_MS per person unless the message carries news
  // (a product asked about, a buying signal): a chatty conversation must not queue a write per line.
  const lastLeadWrite = new Map<string, number>();
  function recordLead(identity: ChatIdentity, text: string, products: Array<{ productId: string; name: string }>) {
    const signal = interestSignalOf(text, products);
    const now = Date.now();
    if (!products.length && signal === 'low' && now - (lastLeadWrite.get(identity.id) ?? 0) < LEAD_REFRESH_MS) return;
    lastLeadWrite.set(identity.id, now);
    if (lastLeadWrite.size > 50_000) lastLeadWrite.clear();
    ctx.background.run('chat lead', () => recordLeadActivity(db, {
      userId: identity.id, userName: identity.name, userEmail: identity.email, productsOfInterest: products, interestSignal: signal,
    }));
  }

  async function replyWithAi(identity: ChatIdentity, userMessage: ChatMessage, opts: { fallback?: boolean } = {}): Promise<ChatMessage | null> {
    const asking = { id: identity.id, name: identity.name, isGuest: identity.isGuest, isSignedIn: !identity.isGuest };
    let text: string;
    let products: Array<{ productId: string; name: string }> = [];
    try {
      await limitAi(identity);
      const answer = await assistant(asking, userMessage.content);
      text = answer.text;
      products = answer.products;
    } catch (err) {
      text = err instanceof Error && 'statusCode' in err && (err as { statusCode: number }).statusCode === 429
        ? TOO_MANY_AI_REQUESTS
        : "I'm sorry, I couldn't process your message right now. Please try again later.";
      if (!(err instanceof Error && 'statusCode' in err)) log.error({ err }, 'chat: assistant failed');
    }
    recordLead(identity, userMessage.content, products);
    const { message } = await storeMessage(db, {
      conversationOwner: { id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest },
      sender: 'ai', ...AI_SENDER, recipientId: identity.id,
      content: opts.fallback ? `${CHAT_FALLBACK_NOTICE}\n\n${text}` : text,
      clientId: opts.fallback ? `fallback:${userMessage.id}` : `ai:${userMessage.id}`,
      ...(opts.fallback ? { fallback: true } : {}),
    });
    const presented = presentMessage(message);
    await hub.publish([{ to: 'user', userId: identity.id }, { to: 'admins' }], { type: 'message', message: presented });
    return presented;
  }

  /** Customer → when the reply wait this instance queued for them falls due. */
  const replyWaits = new Map<string, number>();
  ctx.jobs.register(CHAT_REPLY_WAIT_JOB, async (payload) => {
    const messageId = typeof payload.messageId === 'string' ? payload.messageId : '';
    const [asked] = await db.select().from(chatMessages).where(eq(chatMessages.id, messageId)).limit(1);
    if (!asked || asked.sender !== 'user') return { skipped: 'message gone' };
    // Answered meanwhile: by an administrator, or by the assistant (for an earlier message of the wait).
    const [answered] = await db.select({ sender: chatMessages.sender }).from(chatMessages)
      .where(and(eq(chatMessages.userId, asked.userId), inArray(chatMessages.sender, ['admin', 'ai']), gte(chatMessages.createdAt, asked.createdAt)))
      .limit(1);
    if (answered) return { answeredBy: answered.sender };
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.id, asked.userId)).limit(1);
    if (!account) return { skipped: 'account gone' };
    const identity: ChatIdentity = { id: asked.userId, name: asked.senderName, email: asked.senderEmail, isAdmin: false, isGuest: false };
    const reply = await replyWithAi(identity, presentMessage(asked), { fallback: true });
    return { answeredBy: 'ai', messageId: reply?.id ?? null };
  });

  return {
    hub,
    assistant,
    limitAi,
    async send(identity, input, ip) {
      const content = input.content.trim();
      if (!content) return { message: null, isDuplicate: false, reply: Promise.resolve(null) };
      if (content.length > limits.maxMessageLength) throw badRequest(messageTooLong(limits.maxMessageLength));
      if (input.clientId !== undefined && (input.clientId.length < 1 || input.clientId.length > 100)) throw badRequest('clientId must be 1 to 100 characters');
      const counted = await rateLimiter.hitMany([
        { key: `chat:msg:${identity.id}`, max: limits.messagesPerMinute, windowSeconds: 60 },
        { key: `chat:ip:${ip}`, max: limits.ipMessagesPerMinute, windowSeconds: 60 },
      ]);
      if (counted.some((r) => !r.allowed)) throw tooManyRequests(TOO_MANY_MESSAGES);
      hub.touch(identity);

      if (identity.isAdmin) {
        if (!input.recipientId) throw badRequest(RECIPIENT_REQUIRED);
        const owner = await resolveRecipient(input.recipientId);
        const { message, isDuplicate } = await storeMessage(db, {
          conversationOwner: owner, sender: 'admin', senderId: identity.id, senderName: identity.name, senderEmail: identity.email,
          recipientId: owner.id, content, clientId: input.clientId ?? null,
        });
        const presented = presentMessage(message);
        if (!isDuplicate) {
          // An answer says the conversation was read up to it (the back office's unread counts).
          await advanceReadMark(db, owner.id, message);
          await hub.publish([{ to: 'user', userId: owner.id }, { to: 'admins' }], { type: 'message', message: presented });
        }
        return { message: presented, isDuplicate, reply: Promise.resolve(null) };
      }

      const { message, isDuplicate } = await storeMessage(db, {
        conversationOwner: { id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest },
        sender: 'user', senderId: identity.id, senderName: identity.name, senderEmail: identity.email, content, clientId: input.clientId ?? null,
      });
      const presented = presentMessage(message);
      if (isDuplicate) return { message: presented, isDuplicate, reply: Promise.resolve(null) };
      // The customer's other tabs, and the administrators (who see every conversation).
      await hub.publish([{ to: 'user', userId: identity.id }, { to: 'admins' }], { type: 'message', message: presented });
      const adminAnswers = !identity.isGuest && (await hub.isAdminOnline());
      if (adminAnswers) {
        recordLead(identity, content, []);
        // If no administrator answers in time, the assistant will (the job runs once, on any instance).
        // One wait per conversation at a time: a customer writing several lines queues one job.
        const now = Date.now();
        if ((replyWaits.get(identity.id) ?? 0) <= now) {
          const dueAt = now + limits.adminReplySeconds * 1000;
          await enqueueJob(db, {
            kind: CHAT_REPLY_WAIT_JOB, dedupeKey: presented.id, payload: { messageId: presented.id },
            runAt: new Date(dueAt), maxAttempts: 3,
          });
          if (replyWaits.size > 50_000) replyWaits.clear();
          replyWaits.set(identity.id, dueAt);
        }
        return { message: presented, isDuplicate, reply: Promise.resolve(null) };
      }
      const reply = replyWithAi(identity, presented).catch((err: unknown) => {
        log.error({ err }, 'chat: storing the AI answer failed');
        return null;
      });
      return { message: presented, isDuplicate, reply };
    },
    async greetGuest(identity) {
      const { message, isDuplicate } = await storeMessage(db, {
        conversationOwner: { id: identity.id, name: identity.name, email: identity.email, isGuest: true },
        sender: 'ai', ...AI_SENDER, recipientId: identity.id, content: welcomeGreeting(identity.name), clientId: `welcome:${identity.id}`,
      });
      const presented = presentMessage(message);
      if (!isDuplicate) await hub.publish({ to: 'user', userId: identity.id }, { type: 'message', message: presented });
      recordLead(identity, '', []);
      return presented;
    },
    async answer(identity, text) {
      await limitAi(identity);
      const answer = await assistant({ id: identity.id, name: identity.name, isGuest: identity.isGuest, isSignedIn: !identity.isGuest }, text);
      recordLead(identity, text, answer.products);
      return answer.text;
    },
  };
}
