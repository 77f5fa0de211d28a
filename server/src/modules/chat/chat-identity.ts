import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import type { ChatIdentity } from './chat-hub.ts';
import { GUEST_COOKIE, verifyGuestSession } from './guest-session.ts';
import { createChatService, type ChatService } from './chat-service.ts';

/** The signed-in user (auth cookie) or else the guest of the signed guest-session cookie; null for neither. */
export function chatIdentityOf(request: FastifyRequest, secret: string): ChatIdentity | null {
  const u = request.user;
  if (u) return { id: u.id, name: u.name, email: u.email, isAdmin: u.isAdmin, isGuest: false, sessionId: u.sessionId };
  const guest = verifyGuestSession(secret, request.cookies[GUEST_COOKIE]);
  if (guest) return { id: guest.guestId, name: guest.name, email: guest.email, isAdmin: false, isGuest: true };
  return null;
}

/** Like chatIdentityOf, but a guest whose session was ended (signed in, or ended it) is nobody. */
export async function activeChatIdentityOf(request: FastifyRequest, secret: string, service: ChatService): Promise<ChatIdentity | null> {
  const identity = chatIdentityOf(request, secret);
  if (identity?.isGuest && (await service.hub.isGuestEnded(identity.id))) return null;
  return identity;
}

/**
 * Ends this browser's guest chat (POST chat/end-guest-session, and every sign-in): the cookie is
 * cleared, the guest's sockets on every instance are closed and the cookie is refused from now on.
 */
export async function endGuestChat(ctx: AppContext, log: Parameters<typeof createChatService>[1], request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const value = request.cookies[GUEST_COOKIE];
  if (value === undefined) return;
  reply.clearCookie(GUEST_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.cookieSecure });
  const guest = verifyGuestSession(ctx.config.jwtSecret, value);
  if (guest) await chatServiceFor(ctx, log).hub.endGuest(guest.guestId);
}

// One chat service per app: REST routes (under /api) and the socket route (/ws/chat) share it.
const services = new WeakMap<AppContext, ChatService>();

export function chatServiceFor(ctx: AppContext, log: Parameters<typeof createChatService>[1]): ChatService {
  let service = services.get(ctx);
  if (!service) {
    service = createChatService(ctx, log);
    services.set(ctx, service);
    const created = service;
    ctx.onClose.push(() => created.hub.close());
  }
  return service;
}
