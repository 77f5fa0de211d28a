import fastifyWebsocket from '@fastify/websocket';
import { CHAT_CLOSE_SERVICE_RESTART, type ChatServerEvent } from '@shop/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../../lib/errors.ts';
import { ORIGIN_NOT_ALLOWED, requestOrigin } from '../../lib/origin-check.ts';
import type { ChatIdentity } from './chat-hub.ts';
import { activeChatIdentityOf, chatIdentityOf, chatServiceFor } from './chat-identity.ts';
import { createSocketLimiter } from './socket-limit.ts';

export const CHAT_SOCKET_PATH = '/ws/chat';
/** The server pings every socket this often (SPEC §7: ping answered with pong); two missed pongs close it. */
export const HEARTBEAT_MS = 25_000;
const MAX_FRAME_BYTES = 64 * 1024;
export const PRESENCE_BROADCAST_MS = 250;
export const CLOSE_TOO_MANY_SOCKETS = 4429;
export const CLOSE_UNAUTHORIZED = 4401;

class TooManySockets extends Error {}

function originAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true; // not a browser: it carries no ambient cookies from another site
  try {
    const expected = publicUrl ? new URL(publicUrl).origin : requestOrigin(request);
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === expected;
  } catch {
    return false;
  }
}

/**
 * /ws/chat: a thin adapter over the chat use cases. Signed-in users are identified by the auth
 * cookie, guests by the signed guest-session cookie; the Origin is checked like the REST API's.
 */
export async function chatSocketRoutes(app: FastifyInstance) {
  const { config } = app.ctx;
  const service = chatServiceFor(app.ctx, app.log);
  const { hub } = service;
  // Sockets per IP are counted in Redis when it is configured, so the limit holds across instances.
  const socketLimiter = createSocketLimiter({ redis: app.ctx.redis });
  const open = new Set<WebSocket>();

  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });

  // SIGTERM: tell every client to reconnect (to another instance) at once.
  app.ctx.onDrain.push(() => {
    for (const ws of open) ws.close(CHAT_CLOSE_SERVICE_RESTART, 'Service restart');
  });
  app.ctx.onClose.push(async () => {
    for (const ws of open) ws.terminate();
    await socketLimiter.close();
  });

  const sendTo = (ws: WebSocket, event: ChatServerEvent) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
  };

  // The online-users list goes to administrators at most every PRESENCE_BROADCAST_MS per instance:
  // thousands of sockets connecting at once must not each read and send the whole list.
  let presenceTimer: ReturnType<typeof setTimeout> | null = null;
  const schedulePresenceBroadcast = () => {
    if (presenceTimer) return;
    presenceTimer = setTimeout(() => {
      presenceTimer = null;
      void hub.onlineUsers()
        .then((users) => hub.publish({ to: 'admins' }, { type: 'online-users', users }))
        .catch(() => undefined);
    }, PRESENCE_BROADCAST_MS);
    presenceTimer.unref();
  };
  app.ctx.onClose.push(() => { if (presenceTimer) clearTimeout(presenceTimer); });

  async function announcePresence(identity: ChatIdentity, connected: boolean) {
    if (identity.isAdmin) {
      await hub.broadcastAdminStatus();
      return;
    }
    if (connected) {
      const user = { id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest, lastSeen: new Date().toISOString() };
      await hub.publish({ to: 'admins' }, { type: 'user-connected', user });
    }
    schedulePresenceBroadcast();
  }

  app.get(CHAT_SOCKET_PATH, {
    websocket: true,
    config: { access: 'public', optionalUser: true },
    schema: { hide: true },
    preValidation: async (request, reply) => {
      if (!originAllowed(request, config.publicUrl)) return reply.status(403).send({ message: ORIGIN_NOT_ALLOWED });
      if (!(await activeChatIdentityOf(request, config.jwtSecret, service))) return reply.status(401).send({ message: 'Please sign in or start a guest chat first' });
      return undefined;
    },
  }, (socket: WebSocket, request) => {
    const identity = chatIdentityOf(request, config.jwtSecret)!;
    const ip = request.ip;
    open.add(socket);
    const target = {
      send: (data: string) => { if (socket.readyState === socket.OPEN) socket.send(data); },
      end: () => socket.close(CLOSE_UNAUTHORIZED, 'Chat session ended'),
    };
    let lastHeard = Date.now();
    let closed = false;

    const heartbeat = setInterval(() => {
      if (Date.now() - lastHeard > HEARTBEAT_MS * 2 + 5000) {
        socket.terminate();
        return;
      }
      sendTo(socket, { type: 'ping' });
    }, HEARTBEAT_MS);
    heartbeat.unref();

    let release: (() => Promise<void>) | null = null;
    const attached = (async () => {
      release = await socketLimiter.acquire(ip, config.chat.socketsPerIp);
      if (!release) {
        socket.close(CLOSE_TOO_MANY_SOCKETS, 'Too many chat connections');
        throw new TooManySockets();
      }
      if (closed) return; // the client left while it was being counted
      await hub.attach(identity, target);
      sendTo(socket, { type: 'hello', user: { id: identity.id, name: identity.name, email: identity.email, isAdmin: identity.isAdmin, isGuest: identity.isGuest } });
      sendTo(socket, { type: 'admin-status', isOnline: await hub.isAdminOnline() });
      if (identity.isAdmin) sendTo(socket, { type: 'online-users', users: await hub.onlineUsers() });
      await announcePresence(identity, true);
    })();
    attached.catch((err: unknown) => {
      if (err instanceof TooManySockets) return;
      app.log.error({ err }, 'chat: attaching a socket failed');
      socket.close(1011, 'Server error');
    });

    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      lastHeard = Date.now();
      if (isBinary) return;
      let data: { type?: unknown; content?: unknown; clientId?: unknown; recipientId?: unknown; userId?: unknown };
      try { data = JSON.parse(raw.toString('utf8')) as typeof data; } catch {
        sendTo(socket, { type: 'error', message: 'Invalid message' });
        return;
      }
      if (data.type === 'pong') { hub.touch(identity); return; }
      if (data.type === 'ping') { socket.send(JSON.stringify({ type: 'pong' })); return; }
      if (data.type !== 'message') { sendTo(socket, { type: 'error', message: 'Unknown message type' }); return; }
      const clientId = typeof data.clientId === 'string' ? data.clientId : undefined;
      if (typeof data.content !== 'string') {
        sendTo(socket, { type: 'error', message: 'content is required', ...(clientId ? { clientId } : {}) });
        return;
      }
      const recipient = typeof data.recipientId === 'string' ? data.recipientId : typeof data.userId === 'string' ? data.userId : undefined;
      const content = data.content;
      void (async () => {
        if (!(await attached.then(() => true, () => false))) return; // refused (too many sockets) or failed
        const result = await service.send(identity, { content, clientId, recipientId: identity.isAdmin ? recipient : undefined }, ip);
        if (result.message && clientId) sendTo(socket, { type: 'ack', clientId, message: result.message });
      })().catch((err: unknown) => {
        const message = err instanceof AppError && err.statusCode < 500 ? err.message : 'Message could not be sent. Please try again.';
        if (!(err instanceof AppError)) app.log.error({ err }, 'chat: sending failed');
        sendTo(socket, { type: 'error', message, ...(clientId ? { clientId } : {}) });
      });
    });

    socket.on('close', () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      open.delete(socket);
      void attached
        .then(async () => {
          await release?.();
          await hub.detach(identity, target);
          await announcePresence(identity, false);
        })
        .catch(() => release?.())
        .catch(() => undefined);
    });
  });
}
