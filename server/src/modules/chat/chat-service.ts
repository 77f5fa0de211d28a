import { CHAT_FALLBACK_NOTICE, type ChatMessage } from '@shop/contracts';
import { and, eq, gte, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { users } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { badRequest, notFound, tooManyRequests } from '../../lib/errors.ts';
import { clearLeadWantsPerson, enqueueLeadActivity } from '../leads/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Assistant } from './assistant/answer.ts';
import { welcomeGreeting } from './assistant/built-in-assistant.ts';
import { createAssistant } from './assistant/answer.ts';
import { createShopTools } from './assistant/shop-tools.ts';
import { findHandOff } from './assistant/understand.ts';
import { interestSignalOf } from './chat-leads.ts';
import { createChatHub, type ChatHub, type ChatIdentity } from './chat-hub.ts';
import { presentMessage } from './chat.presenter.ts';
import { advanceReadMark } from './mark-read.ts';
import { storeMessage, type SenderRights } from './store-message.ts';
import { clearConversationWantsPerson, markConversationWantsPerson } from './wants-person.ts';
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

/**
 * The rights a signed-in sender writes with (their session, as administrator or not), checked by the
 * message's INSERT: none for a guest (their session is the signed cookie, ended through the hub).
 */
const rightsOf = (identity: ChatIdentity): SenderRights | undefined =>
  (identity.sessionId && !identity.isGuest ? { sessionId: identity.sessionId, userId: identity.id, isAdmin: identity.isAdmin } : undefined);

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
  // The write is a durable job (leads/lead-jobs.ts), keyed by what caused it (`cause`): queued here,
  // it happens even if the database refuses it for a while. Never rejects (a failure to queue is
  // logged: the database is then down, and the message itself could not be stored either).
  const lastLeadWrite = new Map<string, number>();
  // A person asking for a person (or upset) is news: the lead is written and marked "Wants a person".
  function recordLead(identity: ChatIdentity, text: string, products: Array<{ productId: string; name: string }>, cause: string, wantsPerson = false): Promise<void> {
    const signal = interestSignalOf(text, products);
    const now = Date.now();
    if (!products.length && signal === 'low' && !wantsPerson && now - (lastLeadWrite.get(identity.id) ?? 0) < LEAD_REFRESH_MS) return Promise.resolve();
    lastLeadWrite.set(identity.id, now);
    if (lastLeadWrite.size > 50_000) lastLeadWrite.clear();
    return enqueueLeadActivity(db, {
      userId: identity.id, userName: identity.name, userEmail: identity.email, productsOfInterest: products, interestSignal: signal,
    }, `chat:${cause}`, { wantsPerson }).catch((err: unknown) => log.error({ err }, 'chat: the lead update could not be queued'));
  }

  async function replyWithAi(identity: ChatIdentity, userMessage: ChatMessage, opts: { fallback?: boolean } = {}): Promise<ChatMessage | null> {
    const asking = { id: identity.id, name: identity.name, isGuest: identity.isGuest, isSignedIn: !identity.isGuest };
    let text: string;
    let products: Array<{ productId: string; name: string }> = [];
    let wantsPerson = false;
    try {
      await limitAi(identity);
      const answer = await assistant(asking, userMessage.content);
      text = answer.text;
      products = answer.products;
      wantsPerson = Boolean(answer.handoff);
    } catch (err) {
      text = err instanceof Error && 'statusCode' in err && (err as { statusCode: number }).statusCode === 429
        ? TOO_MANY_AI_REQUESTS
        : "I'm sorry, I couldn't process your message right now. Please try again later.";
      if (!(err instanceof Error && 'statusCode' in err)) log.error({ err }, 'chat: assistant failed');
    }
    const lead = recordLead(identity, userMessage.content, products, `${opts.fallback ? 'fallback' : 'reply'}:${userMessage.id}`, wantsPerson);
    const { message } = await storeMessage(db, {
      conversationOwner: { id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest },
      sender: 'ai', ...AI_SENDER, recipientId: identity.id,
      content: opts.fallback ? `${CHAT_FALLBACK_NOTICE}\n\n${text}` : text,
      clientId: opts.fallback ? `fallback:${userMessage.id}` : `ai:${userMessage.id}`,
      ...(opts.fallback ? { fallback: true } : {}),
    });
    // Queued beside the answer's INSERT, and in before the answer goes out; the conversation marked
    // before the administrators hear of the answer, so their list shows it when they look.
    await lead;
    if (wantsPerson) await markConversationWantsPerson(db, identity.id);
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
          recipientId: owner.id, content, clientId: input.clientId ?? null, rights: rightsOf(identity),
        });
        const presented = presentMessage(message);
        if (!isDuplicate) {
          // A person answered: the conversation and the lead no longer wait for one, and the conversation
          // counts as read up to the answer (the back office's unread counts) — both written before the
          // administrators hear of the answer, so no list shows a stale mark.
          await Promise.all([clearConversationWantsPerson(db, owner.id), clearLeadWantsPerson(db, owner.id), advanceReadMark(db, owner.id, message)]);
          await hub.publish([{ to: 'user', userId: owner.id }, { to: 'admins' }], { type: 'message', message: presented });
        }
        return { message: presented, isDuplicate, reply: Promise.resolve(null) };
      }

      const { message, isDuplicate } = await storeMessage(db, {
        conversationOwner: { id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest },
        sender: 'user', senderId: identity.id, senderName: identity.name, senderEmail: identity.email, content, clientId: input.clientId ?? null,
        rights: rightsOf(identity),
      });
      const presented = presentMessage(message);
      if (isDuplicate) return { message: presented, isDuplicate, reply: Promise.resolve(null) };
      // The customer's other tabs, and the administrators (who see every conversation).
      await hub.publish([{ to: 'user', userId: identity.id }, { to: 'admins' }], { type: 'message', message: presented });
      const adminAnswers = !identity.isGuest && (await hub.isAdminOnline());
      if (adminAnswers) {
        // No assistant reads this one: a wish for a person (or anger) still marks the conversation and the lead.
        const wantsPerson = findHandOff(content) !== null;
        await recordLead(identity, content, [], `message:${presented.id}`, wantsPerson);
        if (wantsPerson) await markConversationWantsPerson(db, identity.id);
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
      await recordLead(identity, '', [], `greeting:${identity.id}`);
      return presented;
    },
    async answer(identity, text) {
      await limitAi(identity);
      const answer = await assistant({ id: identity.id, name: identity.name, isGuest: identity.isGuest, isSignedIn: !identity.isGuest }, text);
      await recordLead(identity, text, answer.products, `question:${newId()}`, Boolean(answer.handoff));
      if (answer.handoff) await markConversationWantsPerson(db, identity.id);
      return answer.text;
    },
  };
}
