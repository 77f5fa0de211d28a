import { randomBytes } from 'node:crypto';
import type { ChatServerEvent, OnlineUser } from '@shop/contracts';
import type { Redis } from 'ioredis';
import { GUEST_SESSION_DAYS } from './guest-session.ts';

/** Who is on the other end of a chat socket. Guests' ids are made by the server and contain 'guest'. */
export interface ChatIdentity {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  isGuest: boolean;
}

/** Where an event goes: one conversation's participants (the customer's sockets), the administrators, or everyone. */
export type ChatTarget = { to: 'user'; userId: string } | { to: 'admins' } | { to: 'all' };
interface Envelope { targets: ChatTarget[]; event?: ChatServerEvent; origin: string; endSessionOf?: string }

export interface ChatSocket {
  send(data: string): void;
  /** Closes the socket because its session ended (sign-in replaced the guest session). */
  end?(): void;
}

interface PresenceEntry extends OnlineUser { isAdmin: boolean }

/**
 * Presence, administrator availability and fan-out of chat events. With Redis every instance
 * shares them (pub/sub for events; a sorted set of expiring members for presence; a hash for
 * availability); without it everything stays in this process.
 */
export interface ChatHub {
  readonly instanceId: string;
  attach(identity: ChatIdentity, socket: ChatSocket): Promise<void>;
  detach(identity: ChatIdentity, socket: ChatSocket): Promise<void>;
  /** Marks the identity as seen now (a pong or a message). */
  touch(identity: ChatIdentity): void;
  /**
   * Delivers an event to this instance's sockets at once and, with Redis, to the other instances
   * (one PUBLISH whatever the number of targets; commands on one connection keep their order).
   */
  publish(target: ChatTarget | ChatTarget[], event: ChatServerEvent): Promise<void>;
  onlineUsers(): Promise<OnlineUser[]>;
  /** True when an administrator with availability on has a chat socket open on any instance. */
  isAdminOnline(): Promise<boolean>;
  isAdminAvailable(adminId: string): Promise<boolean>;
  setAdminAvailable(adminId: string, available: boolean): Promise<void>;
  /** Sends the current administrator status to everyone (after a toggle, connect or disconnect). */
  broadcastAdminStatus(): Promise<void>;
  /**
   * Ends a guest's chat session on every instance: its sockets are closed and its (signed,
   * otherwise still valid) cookie is refused from now on.
   */
  endGuest(guestId: string): Promise<void>;
  isGuestEnded(guestId: string): Promise<boolean>;
  /** Every socket attached to this instance. */
  localSockets(): ChatSocket[];
  close(): Promise<void>;
}

/** Presence entries live this long without a refresh (a crashed instance's users drop out). */
export const PRESENCE_TTL_MS = 60_000;
const REFRESH_MS = 20_000;
const ADMIN_STATUS_CACHE_MS = 1000;
/** An ended guest session is remembered as long as its cookie could still be valid. */
const ENDED_GUEST_TTL_MS = GUEST_SESSION_DAYS * 86_400_000;
const KEY = { endedGuest: 'chat:guest-ended:', online: 'chat:online', admins: 'chat:online-admins', users: 'chat:users', available: 'chat:admin-available', channel: 'chat:events' };

export function createChatHub(opts: { redis?: Redis | undefined; now?: () => number } = {}): ChatHub {
  const now = opts.now ?? Date.now;
  const instanceId = randomBytes(6).toString('hex');
  const local = new Map<string, { identity: ChatIdentity; sockets: Set<ChatSocket>; lastSeen: number }>();
  const admins = new Set<string>();

  // Shared state: Redis when configured, otherwise these maps.
  const memPresence = new Map<string, { entry: PresenceEntry; expiresAt: number }>();
  const memAvailable = new Map<string, boolean>();
  const memEnded = new Map<string, number>();
  const redis = opts.redis;
  const subscriber = redis?.duplicate();

  function deliverLocal(targets: ChatTarget[], event: ChatServerEvent) {
    if (event.type === 'admin-status') adminOnlineCache = null;
    const data = JSON.stringify(event);
    // Indexed: a message for one conversation touches that customer's sockets and the
    // administrators', not every socket of the instance.
    const recipients = new Set<ChatSocket>();
    for (const target of targets) {
      if (target.to === 'user') {
        for (const s of local.get(target.userId)?.sockets ?? []) recipients.add(s);
      } else if (target.to === 'admins') {
        for (const id of admins) for (const s of local.get(id)?.sockets ?? []) recipients.add(s);
      } else {
        for (const l of local.values()) for (const s of l.sockets) recipients.add(s);
      }
    }
    for (const s of recipients) {
      try { s.send(data); } catch { /* a closing socket */ }
    }
  }

  function endLocal(userId: string) {
    for (const s of local.get(userId)?.sockets ?? []) {
      try { s.end?.(); } catch { /* already closed */ }
    }
  }

  const ready = subscriber
    ? subscriber.subscribe(KEY.channel).then(() => {
      subscriber.on('message', (_channel: string, raw: string) => {
        try {
          const env = JSON.parse(raw) as Envelope;
          // This instance delivered its own events when they were published.
          if (env.origin === instanceId) return;
          if (env.endSessionOf) endLocal(env.endSessionOf);
          if (env.event) deliverLocal(env.targets, env.event);
        } catch { /* not ours */ }
      });
    })
    : Promise.resolve();

  const entryOf = (identity: ChatIdentity, lastSeen: number): PresenceEntry => ({
    id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest, isAdmin: identity.isAdmin,
    lastSeen: new Date(lastSeen).toISOString(),
  });

  async function writePresence(entries: PresenceEntry[]) {
    if (!entries.length) return;
    const expiresAt = now() + PRESENCE_TTL_MS;
    if (!redis) {
      for (const e of entries) memPresence.set(e.id, { entry: e, expiresAt });
      return;
    }
    const multi = redis.multi();
    for (const e of entries) {
      multi.zadd(KEY.online, expiresAt, e.id);
      if (e.isAdmin) multi.zadd(KEY.admins, expiresAt, e.id);
      multi.hset(KEY.users, e.id, JSON.stringify(e));
    }
    await multi.exec();
  }

  async function removePresence(id: string) {
    if (!redis) { memPresence.delete(id); return; }
    await redis.multi().zrem(KEY.online, id).zrem(KEY.admins, id).hdel(KEY.users, id).exec();
  }

  async function readPresence(): Promise<PresenceEntry[]> {
    const t = now();
    if (!redis) {
      const out: PresenceEntry[] = [];
      for (const [id, v] of memPresence) {
        if (v.expiresAt <= t) memPresence.delete(id);
        else out.push(v.entry);
      }
      return out;
    }
    const ids = await redis.zrangebyscore(KEY.online, t, '+inf');
    if (!ids.length) return [];
    const raw = await redis.hmget(KEY.users, ...ids);
    return raw.flatMap((r) => (r ? [JSON.parse(r) as PresenceEntry] : []));
  }

  // Refresh this instance's members so they outlive PRESENCE_TTL_MS; drop expired ones.
  const refresher = setInterval(() => {
    const entries = [...local.values()].map((l) => entryOf(l.identity, l.lastSeen));
    void writePresence(entries).catch(() => undefined);
    if (redis) void redis.multi().zremrangebyscore(KEY.online, '-inf', now()).zremrangebyscore(KEY.admins, '-inf', now()).exec().catch(() => undefined);
  }, REFRESH_MS);
  refresher.unref();

  // Read for every customer message: cached briefly, and dropped whenever a status change is
  // broadcast (connect, disconnect, toggle) on any instance.
  let adminOnlineCache: { value: boolean; until: number } | null = null;
  async function isAvailable(adminId: string): Promise<boolean> {
    if (!redis) return memAvailable.get(adminId) ?? true;
    return (await redis.hget(KEY.available, adminId)) !== '0';
  }
  async function readAdminOnline(): Promise<boolean> {
    // Only the administrators' set is read: this runs for every customer message.
    const onlineAdmins = redis
      ? await redis.zrangebyscore(KEY.admins, now(), '+inf')
      : [...memPresence.values()].filter((v) => v.entry.isAdmin && v.expiresAt > now()).map((v) => v.entry.id);
    if (!onlineAdmins.length) return false;
    for (const id of onlineAdmins) if (await isAvailable(id)) return true;
    return false;
  }

  const hub: ChatHub = {
    instanceId,
    async attach(identity, socket) {
      await ready;
      const existing = local.get(identity.id);
      if (existing) {
        existing.sockets.add(socket);
        existing.identity = identity;
        existing.lastSeen = now();
      } else {
        local.set(identity.id, { identity, sockets: new Set([socket]), lastSeen: now() });
      }
      if (identity.isAdmin) admins.add(identity.id);
      await writePresence([entryOf(identity, now())]);
      if (identity.isAdmin) adminOnlineCache = null;
    },
    async detach(identity, socket) {
      const existing = local.get(identity.id);
      if (!existing) return;
      existing.sockets.delete(socket);
      if (existing.sockets.size) return;
      local.delete(identity.id);
      admins.delete(identity.id);
      await removePresence(identity.id);
      if (identity.isAdmin) adminOnlineCache = null;
    },
    touch(identity) {
      const existing = local.get(identity.id);
      if (existing) existing.lastSeen = now();
    },
    async publish(target, event) {
      const targets = Array.isArray(target) ? target : [target];
      deliverLocal(targets, event);
      if (redis) await redis.publish(KEY.channel, JSON.stringify({ targets, event, origin: instanceId } satisfies Envelope));
    },
    async onlineUsers() {
      const entries = await readPresence();
      return entries
        .filter((e) => !e.isAdmin)
        .map(({ isAdmin: _isAdmin, ...u }) => u)
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async isAdminOnline() {
      if (adminOnlineCache && adminOnlineCache.until > now()) return adminOnlineCache.value;
      const value = await readAdminOnline();
      adminOnlineCache = { value, until: now() + ADMIN_STATUS_CACHE_MS };
      return value;
    },
    isAdminAvailable: isAvailable,
    async setAdminAvailable(adminId, available) {
      adminOnlineCache = null;
      if (!redis) memAvailable.set(adminId, available);
      else await redis.hset(KEY.available, adminId, available ? '1' : '0');
    },
    async broadcastAdminStatus() {
      adminOnlineCache = null;
      await hub.publish({ to: 'all' }, { type: 'admin-status', isOnline: await hub.isAdminOnline() });
    },
    async endGuest(guestId) {
      if (!guestId.includes('guest')) return;
      if (redis) {
        await redis.set(`${KEY.endedGuest}${guestId}`, '1', 'PX', ENDED_GUEST_TTL_MS);
        await redis.publish(KEY.channel, JSON.stringify({ targets: [], origin: instanceId, endSessionOf: guestId } satisfies Envelope));
      } else {
        if (memEnded.size > 100_000) memEnded.clear();
        memEnded.set(guestId, now() + ENDED_GUEST_TTL_MS);
      }
      endLocal(guestId);
    },
    async isGuestEnded(guestId) {
      if (redis) return (await redis.exists(`${KEY.endedGuest}${guestId}`)) === 1;
      const until = memEnded.get(guestId);
      return until !== undefined && until > now();
    },
    localSockets() {
      return [...local.values()].flatMap((l) => [...l.sockets]);
    },
    async close() {
      clearInterval(refresher);
      for (const id of local.keys()) await removePresence(id).catch(() => undefined);
      local.clear();
      if (subscriber) await subscriber.quit().catch(() => undefined);
    },
  };
  return hub;
}
