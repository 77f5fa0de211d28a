import fastifyWebsocket from '@fastify/websocket';
import {
  CHAT_CLOSE_INVALID_FRAMES, CHAT_CLOSE_REAUTHENTICATE, CHAT_CLOSE_SERVICE_RESTART, CHAT_CLOSE_SIGNED_OUT, CHAT_CLOSE_TOO_MANY_SOCKETS,
  CHAT_INVALID_FRAME_MESSAGE, type ChatServerEvent,
} from '@shop/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';
import { ACCESS_COOKIE, findSessionUser } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { ORIGIN_NOT_ALLOWED, requestOrigin } from '../../lib/origin-check.ts';
import type { ChatIdentity, ChatSocket } from './chat-hub.ts';
import { checkClientFrame, createInvalidFrameCounter } from './frame-guard.ts';
import { rightsChanged } from './store-message.ts';
import { activeChatIdentityOf, chatIdentityOf, chatServiceFor } from './chat-identity.ts';
import { createHeartbeatWheel } from './heartbeat-wheel.ts';
import { createSocketLimiter } from './socket-limit.ts';

export const CHAT_SOCKET_PATH = '/ws/chat';
/** The server pings every socket this often (SPEC §7: ping answered with pong); two missed pongs close it. */
export const HEARTBEAT_MS = 25_000;
const MAX_FRAME_BYTES = 64 * 1024;
const PING = JSON.stringify({ type: 'ping' } satisfies ChatServerEvent);
export const PRESENCE_BROADCAST_MS = 250;
export const CLOSE_TOO_MANY_SOCKETS = CHAT_CLOSE_TOO_MANY_SOCKETS;
export const CLOSE_UNAUTHORIZED = CHAT_CLOSE_SIGNED_OUT;

class TooManySockets extends Error {}

/** Socket errors a client causes: a dropped connection (the ws library's frame errors are recognised by their WS_ERR_ code). */
const CLIENT_NETWORK_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether an error on a chat socket comes from the client: a frame `ws` refuses (over maxPayload
 * `WS_ERR_UNSUPPORTED_MESSAGE_LENGTH`, invalid UTF-8 `WS_ERR_INVALID_UTF8`, unmasked
 * `WS_ERR_EXPECTED_MASK`, a bad opcode, RSV bit or close code…) or a connection it dropped.
 */
export function isClientSocketError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('WS_ERR_') || CLIENT_NETWORK_ERRORS.has(code));
}

/** Sockets told to resync per RESYNC_EVERY_MS after a Redis outage (each fetches its history once). */
const RESYNC_CHUNK = 200;
const RESYNC_EVERY_MS = 100;

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
  const socketLimiter = createSocketLimiter({ redis: app.ctx.redis, isUp: () => app.ctx.redisHealth.isUp() });
  const open = new Set<WebSocket>();
  const heartbeats = createHeartbeatWheel(HEARTBEAT_MS);

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    // Called for every 'error' of an open socket and for a handler that throws. The plugin's
    // default logs each at error level with its stack and terminates the socket: one line per
    // socket that any visitor could write at will (an oversized frame, invalid UTF-8, an unmasked
    // frame). Those are the client's doing: a debug line, and ws has already begun the closing
    // handshake with the code the client gets (1009, 1007, 1002) and ends the connection after the
    // close frame (a terminate could drop that frame). Anything else is ours: an error, and 1011.
    errorHandler: (err, socket, request) => {
      if (isClientSocketError(err)) {
        request.log.debug({ err: { message: err.message, code: (err as { code?: string }).code } }, 'chat: socket closed for a client error');
        return;
      }
      request.log.error({ err }, 'chat: a socket failed; closing it');
      try {
        if (socket.readyState === socket.OPEN) socket.close(1011, 'Server error');
        else if (socket.readyState === socket.CONNECTING) socket.terminate();
      } catch { /* already closed */ }
    },
  });

  // SIGTERM: tell every client to reconnect (to another instance) at once.
  app.ctx.onDrain.push(() => {
    for (const ws of open) ws.close(CHAT_CLOSE_SERVICE_RESTART, 'Service restart');
  });
  app.ctx.onClose.push(async () => {
    heartbeats.stop();
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
    config: { access: 'public', optionalUser: true, private: true },
    schema: { hide: true },
    preValidation: async (request, reply) => {
      if (!originAllowed(request, config.publicUrl)) return reply.status(403).send({ message: ORIGIN_NOT_ALLOWED });
      if (!(await activeChatIdentityOf(request, config.jwtSecret, service))) return reply.status(401).send({ message: 'Please sign in or start a guest chat first' });
      return undefined;
    },
  }, (socket: WebSocket, request) => {
    // Nothing a client sends, and no failure of the work it starts, may escape this handler: an
    // exception in a socket event would end the process. Every listener is guarded; an unexpected
    // error is logged and closes this one socket with 1011.
    try {
      handleSocket(socket, request);
    } catch (err) {
      app.log.error({ err }, 'chat: opening a socket failed');
      try { socket.close(1011, 'Server error'); } catch { /* already closed */ }
    }
  });

  /** Closes every local socket whose account changed, a few at a time (after a Redis outage, where rechecks may have been missed). */
  function recheckAllLocal() {
    const sockets = hub.localSockets();
    let i = 0;
    const next = () => {
      for (const end = i + 50; i < end && i < sockets.length; i += 1) sockets[i]!.recheck?.();
      if (i < sockets.length) setTimeout(next, 100).unref();
    };
    next();
  }
  /** Tells every local socket to fetch what was stored since `since`, a few at a time (each makes one history request). */
  function resyncAllLocal(since: string) {
    const data = JSON.stringify({ type: 'resync', since } satisfies ChatServerEvent);
    const sockets = hub.localSockets();
    let i = 0;
    const next = () => {
      for (const end = i + RESYNC_CHUNK; i < end && i < sockets.length; i += 1) {
        try { sockets[i]!.send(data); } catch { /* a closing socket */ }
      }
      if (i < sockets.length) setTimeout(next, RESYNC_EVERY_MS).unref();
    };
    next();
  }
  app.ctx.redisHealth.onChange((up) => {
    hub.redisChanged(up);
    if (up) recheckAllLocal();
  });
  // Back on Redis after an outage (commands and subscription): events between instances were lost
  // meanwhile, and no socket closed, so every client is told to catch up; administrators get the
  // online users again (connections on other instances went unseen).
  hub.onResync((since) => {
    resyncAllLocal(since);
    schedulePresenceBroadcast();
  });

  app.ctx.recheckChatSockets = (userId: string) => {
    hub.recheck(userId).catch((err: unknown) => app.log.warn({ err }, 'chat: asking to re-check sockets failed'));
  };

  // Customers always see who answers them: an administrator (with the reply wait) or the assistant.
  const responderEvent = (adminOnline: boolean): ChatServerEvent => (adminOnline
    ? { type: 'responder', responder: 'admin', replyWithinSeconds: config.chat.adminReplySeconds }
    : { type: 'responder', responder: 'ai' });
  hub.onAdminStatusChange((online) => hub.deliverLocal({ to: 'customers' }, responderEvent(online)));

  function handleSocket(socket: WebSocket, request: FastifyRequest) {
    const identity = chatIdentityOf(request, config.jwtSecret);
    if (!identity) {
      socket.close(CHAT_CLOSE_SIGNED_OUT, 'Signed out');
      return;
    }
    const sessionId = request.user?.sessionId;
    const ip = request.ip;
    let closed = false;
    const closeWith = (code: number, reason: string) => {
      try {
        if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
      } catch { /* already closing */ }
    };
    const fail = (err: unknown, where: string) => {
      app.log.error({ err, where }, 'chat: a socket handler failed; closing that socket');
      closeWith(1011, 'Server error');
    };
    /** Wraps a listener: a throw or a rejected promise closes this socket (1011), never the process. */
    const guarded = <A extends unknown[]>(where: string, fn: (...args: A) => unknown) => (...args: A) => {
      try {
        const result = fn(...args);
        if (result instanceof Promise) result.catch((err: unknown) => fail(err, where));
      } catch (err) {
        fail(err, where);
      }
    };

    /**
     * Set once this socket's rights are known to be gone (a frame was refused, or a re-check found
     * the session ended or the role changed): every later frame is refused without any work, while
     * the close is on its way.
     */
    let rightsLost = false;
    /**
     * Checks the account again (rights may have changed on any instance) and closes the socket if
     * need be. Resolves whether the socket keeps its rights.
     */
    const recheck = async (): Promise<boolean> => {
      if (closed || rightsLost) return false;
      if (identity.isGuest) {
        if (!(await hub.isGuestEnded(identity.id))) return true;
        rightsLost = true;
        closeWith(CHAT_CLOSE_SIGNED_OUT, 'Chat session ended');
        return false;
      }
      if (!sessionId) return true;
      const user = await findSessionUser(app.ctx.db, sessionId, identity.id);
      if (user && user.isAdmin === identity.isAdmin) return true;
      rightsLost = true;
      if (!user) closeWith(CHAT_CLOSE_SIGNED_OUT, 'Signed out'); // session ended, password changed, account deleted
      else closeWith(CHAT_CLOSE_REAUTHENTICATE, 'Rights changed'); // demoted (or promoted)
      return false;
    };
    const target: ChatSocket = {
      send: (data: string) => { if (socket.readyState === socket.OPEN) socket.send(data); },
      end: () => closeWith(CHAT_CLOSE_SIGNED_OUT, 'Chat session ended'),
      recheck: () => { recheck().catch((err: unknown) => fail(err, 'recheck')); },
    };
    open.add(socket);
    let lastHeard = Date.now();
    const invalidFrames = createInvalidFrameCounter();

    // The access token's expiry is honoured on the open socket: at its exp the socket closes with
    // 4001 and the client renews its session and reconnects.
    let expiry: ReturnType<typeof setTimeout> | null = null;
    const expMs = identity.isGuest ? null : accessTokenExpiryMs(request.cookies[ACCESS_COOKIE]);
    if (expMs !== null) {
      expiry = setTimeout(() => closeWith(CHAT_CLOSE_REAUTHENTICATE, 'Access token expired'), Math.min(Math.max(0, expMs - Date.now()), MAX_TIMER_MS));
      expiry.unref();
    }

    const stopHeartbeat = heartbeats.add(guarded('heartbeat', () => {
      if (Date.now() - lastHeard > HEARTBEAT_MS * 2 + 5000) {
        socket.terminate();
        return;
      }
      if (socket.readyState === socket.OPEN) socket.send(PING);
    }));

    let release: (() => Promise<void>) | null = null;
    const attached = (async () => {
      release = await socketLimiter.acquire(ip, config.chat.socketsPerIp);
      if (!release) {
        closeWith(CHAT_CLOSE_TOO_MANY_SOCKETS, 'Too many chat connections');
        throw new TooManySockets();
      }
      if (closed) return; // the client left while it was being counted
      await hub.attach(identity, target);
      sendTo(socket, { type: 'hello', user: { id: identity.id, name: identity.name, email: identity.email, isAdmin: identity.isAdmin, isGuest: identity.isGuest } });
      const adminOnline = await hub.isAdminOnline();
      sendTo(socket, { type: 'admin-status', isOnline: adminOnline });
      if (identity.isAdmin) sendTo(socket, { type: 'online-users', users: await hub.onlineUsers() });
      else sendTo(socket, responderEvent(adminOnline && !identity.isGuest)); // guests are answered by the assistant
      await announcePresence(identity, true);
    })();
    attached.catch((err: unknown) => {
      if (err instanceof TooManySockets) return;
      fail(err, 'attach');
    });

    // Socket errors (1009 oversized, 1007 invalid UTF-8, 1002 protocol error: ws closes the socket
    // itself) go to the plugin's errorHandler above, which logs them at debug.

    socket.on('message', guarded('message', (raw: unknown, isBinary: boolean) => {
      lastHeard = Date.now();
      const check = checkClientFrame(raw, isBinary);
      if (!check.ok) {
        sendTo(socket, { type: 'error', message: CHAT_INVALID_FRAME_MESSAGE });
        if (invalidFrames.hit()) closeWith(CHAT_CLOSE_INVALID_FRAMES, 'Too many invalid messages');
        return;
      }
      const frame = check.frame;
      if (frame.type === 'pong') { hub.touch(identity); return; }
      if (frame.type === 'ping') { target.send(JSON.stringify({ type: 'pong' })); return; }
      if (frame.type === 'activity') {
        if (rightsLost) return;
        hub.touch(identity);
        // An administrator's heartbeat keeps them online for customers (an elevated right): it is
        // honoured only once the database says they still are one (issue 32). Rare (every 15 s per
        // tab), so the read costs nothing worth saving; a customer's heartbeat reads nothing.
        if (identity.isAdmin) return recheck().then((kept) => { if (kept) hub.activity(identity); });
        return;
      }
      const clientId = frame.clientId;
      const recipient = frame.recipientId ?? frame.userId;
      const content = frame.content;
      return (async () => {
        if (!(await attached.then(() => true, () => false))) return; // refused (too many sockets) or failed
        if (closed) return;
        if (rightsLost) throw rightsChanged();
        // The message's INSERT checks this socket's session and role (store-message.ts): a frame
        // handled after a sign-out, demotion, deletion or password change committed is refused,
        // whichever instance did it and whether or not this one has been told yet.
        const result = await service.send(identity, { content, clientId, recipientId: identity.isAdmin ? recipient : undefined }, ip);
        if (result.message && clientId) sendTo(socket, { type: 'ack', clientId, message: result.message });
      })().catch((err: unknown) => {
        const message = err instanceof AppError && err.statusCode < 500 ? err.message : 'Message could not be sent. Please try again.';
        if (!(err instanceof AppError)) app.log.error({ err }, 'chat: sending failed');
        sendTo(socket, { type: 'error', message, ...(clientId ? { clientId } : {}) });
        // Refused for its rights: the socket closes with the code that tells the client what to do.
        if (err instanceof AppError && err.code === 'RIGHTS_CHANGED' && !rightsLost) target.recheck?.();
      });
    }));

    socket.on('close', guarded('close', () => {
      if (closed) return;
      closed = true;
      stopHeartbeat();
      if (expiry) clearTimeout(expiry);
      open.delete(socket);
      return attached
        .then(async () => {
          await release?.();
          await hub.detach(identity, target);
          await announcePresence(identity, false);
        })
        .catch(() => release?.())
        .catch(() => undefined);
    }));
  }
}

/** Timers longer than this overflow (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** When the access token of the cookie expires (ms since the epoch), or null. The token was verified when the socket opened. */
function accessTokenExpiryMs(token: string | undefined): number | null {
  if (!token) return null;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}
