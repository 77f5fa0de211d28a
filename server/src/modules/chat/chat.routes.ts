import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../../lib/errors.ts';
import { activeChatIdentityOf, chatServiceFor, endGuestChat } from './chat-identity.ts';
import * as s from './chat.schemas.ts';
import { GUEST_COOKIE, GUEST_SESSION_DAYS, newGuestId, signGuestSession } from './guest-session.ts';
import { markChatRead } from './mark-read.ts';
import { getChatById, getOwnHistory, listAllHistory, listConversationMessages } from './read-messages.ts';

// Public routes whose answers are the caller's own (their session, or their guest chat's cookie):
// Cache-Control: private, no-store (lib/private-answers.ts).
const personal = { access: 'public', private: true } as const;
const publicWithUser = { ...personal, optionalUser: true } as const;
export const GUEST_SESSIONS_PER_IP_PER_HOUR = 20;
export const NOT_IN_CHAT = 'Please sign in or start a guest chat first';

/** REST of SPEC §7 Chat (leads are the leads module's). Owner-scoped reads answer 404 to anyone else. */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, rateLimiter } = app.ctx;
  const service = chatServiceFor(app.ctx, app.log);
  const secret = config.jwtSecret;
  const identityOf = (request: Parameters<typeof activeChatIdentityOf>[0]) => activeChatIdentityOf(request, secret, service);
  const identityOrThrow = async (request: Parameters<typeof activeChatIdentityOf>[0]) => {
    const identity = await identityOf(request);
    if (!identity) throw unauthorized(NOT_IN_CHAT);
    return identity;
  };

  app.get('/chat/verify-guest', { config: personal, schema: s.verifyGuestSchema }, async (request) => {
    const identity = await identityOf(request);
    if (!identity?.isGuest || request.user) return { success: false as const };
    return { success: true as const, guestId: identity.id, name: identity.name, email: identity.email };
  });

  app.post('/chat/guest-session', { config: personal, schema: s.guestSessionSchema }, async (request, reply) => {
    const limit = await rateLimiter.hit(`chat:guest-session:${request.ip}`, GUEST_SESSIONS_PER_IP_PER_HOUR, 3600);
    if (!limit.allowed) {
      reply.header('retry-after', String(limit.retryAfterSeconds));
      throw tooManyRequests();
    }
    const session = { guestId: newGuestId(), name: request.body.name, email: request.body.email.toLowerCase(), timestamp: Date.now() };
    reply.setCookie(GUEST_COOKIE, signGuestSession(secret, session), {
      httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/', maxAge: GUEST_SESSION_DAYS * 86_400,
    });
    await service.greetGuest({ id: session.guestId, name: session.name, email: session.email, isAdmin: false, isGuest: true });
    return { name: session.name, guestId: session.guestId };
  });

  app.post('/chat/end-guest-session', { config: personal, schema: s.endGuestSessionSchema }, async (request, reply) => {
    await endGuestChat(app.ctx, app.log, request, reply);
    return { message: 'Guest session ended' };
  });

  app.post('/chat/save', { config: publicWithUser, schema: s.saveMessageSchema }, async (request, reply) => {
    const identity = await identityOrThrow(request);
    const m = request.body.message;
    const result = await service.send(identity, { content: m.content, clientId: m.clientId, recipientId: m.recipientId ?? m.userId }, request.ip);
    return reply.status(result.message && !result.isDuplicate ? 201 : 200).send({ message: result.message });
  });

  app.get('/chat/user-messages/:userId', { config: publicWithUser, schema: s.userMessagesSchema }, async (request) => {
    const identity = await identityOrThrow(request);
    if (!identity.isAdmin && identity.id !== request.params.userId) throw notFound('Chat not found');
    return { messages: await listConversationMessages(db, request.params.userId, request.query.after) };
  });

  app.get('/chat/history', { config: { access: 'user' }, schema: s.historySchema }, async (request) =>
    getOwnHistory(db, requireUser(request).id, request.query.after));

  app.get('/chat/guest-history', { config: personal, schema: s.guestHistorySchema }, async (request) => {
    const identity = await identityOf(request);
    if (!identity?.isGuest || identity.id !== request.query.guestId) throw notFound('Chat not found');
    return { messages: await listConversationMessages(db, identity.id, request.query.after) };
  });

  app.get('/chat/admin-status', { config: { access: 'public' }, schema: s.adminStatusSchema }, async () =>
    ({ isOnline: await service.hub.isAdminOnline() }));

  app.post('/chat/toggle-admin-status', { config: { access: 'admin' }, schema: s.toggleAdminStatusSchema }, async (request) => {
    const admin = requireUser(request);
    const next = request.body?.isOnline ?? !(await service.hub.isAdminAvailable(admin.id));
    await service.hub.setAdminAvailable(admin.id, next);
    await service.hub.broadcastAdminStatus();
    return { isOnline: next, message: next ? 'You are now online' : 'You are now offline' };
  });

  app.post('/chat/ai-response', { config: publicWithUser, schema: s.aiResponseSchema }, async (request) => {
    const identity = await identityOrThrow(request);
    const text = request.body.message.trim();
    if (!text) throw badRequest('Message is required');
    if (text.length > config.chat.maxMessageLength) throw badRequest(`Message is too long (at most ${config.chat.maxMessageLength} characters)`);
    return { response: await service.answer(identity, text) };
  });

  app.get('/chat/online-users', { config: { access: 'admin' }, schema: s.onlineUsersSchema }, async () =>
    ({ users: await service.hub.onlineUsers() }));

  app.get('/chat/all-history', { config: { access: 'admin' }, schema: s.allHistorySchema }, async (request) =>
    listAllHistory(db, { search: request.query.search, page: request.query.page }));

  app.get('/chat/chat/:id', { config: { access: 'admin' }, schema: s.chatByIdSchema }, async (request) => {
    if (!/^[0-9a-f]{24}$/.test(request.params.id)) throw notFound('Chat not found');
    return getChatById(db, request.params.id);
  });

  app.post('/chat/chat/:id/read', { config: { access: 'admin' }, schema: s.markChatReadSchema }, async (request) => {
    if (!/^[0-9a-f]{24}$/.test(request.params.id)) throw notFound('Chat not found');
    return markChatRead(db, request.params.id, request.body.messageId);
  });
};
