import { randomBytes } from 'node:crypto';
import { CHAT_ADMIN_ACTIVITY_LAPSE_MS, type ChatServerEvent, type OnlineUser } from '@shop/contracts';
import type { Redis } from 'ioredis';
import { GUEST_SESSION_DAYS } from './guest-session.ts';
import { createSpreadRenewal } from './spread-renewal.ts';

/** Who is on the other end of a chat socket. Guests' ids are made by the server and contain 'guest'. */
export interface ChatIdentity {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  isGuest: boolean;
  /** A signed-in user's session: what they send is stored only while it lives with these rights (store-message.ts). */
  sessionId?: string;
}

/** Where an event goes: one conversation's participants (the customer's sockets), the administrators, or everyone. */
export type ChatTarget = { to: 'user'; userId: string } | { to: 'admins' } | { to: 'all' } | { to: 'customers' };
interface Envelope { targets: ChatTarget[]; event?: ChatServerEvent; origin: string; endSessionOf?: string; recheckOf?: string }

export interface ChatSocket {
  send(data: string): void;
  /** Closes the socket because its session ended (sign-in replaced the guest session). */
  end?(): void;
  /** Checks the account behind the socket again (its rights may have changed) and closes it if need be. */
  recheck?(): void;
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
   * An administrator's `activity` heartbeat: they count as online until CHAT_ADMIN_ACTIVITY_LAPSE_MS
   * after the last one (attaching a socket counts as one).
   */
  activity(identity: ChatIdentity): void;
  /**
   * Asks every instance (Redis pub/sub; only this one without Redis or while it is down) to check
   * again the account of this user's sockets: signed out, deleted, demoted, password changed.
   */
  recheck(userId: string): Promise<void>;
  /** Calls `fn` with true/false whenever "an administrator is online" changes, as seen by this instance. */
  onAdminStatusChange(fn: (online: boolean) => void): void;
  /** Delivers an event to this instance's sockets only. */
  deliverLocal(target: ChatTarget | ChatTarget[], event: ChatServerEvent): void;
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
  /** This instance's Redis link went away (false) or came back (true): app.ctx.redisHealth.onChange. */
  redisChanged(up: boolean): void;
  /**
   * Calls `fn` when this instance is back on Redis (its commands and its subscription) after events
   * may have been lost in either direction: every local socket must catch up on what was stored
   * from `since` (an ISO time, RESYNC_MARGIN_MS before the gap began). The conversations whose
   * messages this instance could not publish meanwhile are told to resync on the other instances too.
   */
  onResync(fn: (since: string) => void): void;
  close(): Promise<void>;
}

/** Presence entries live this long without a refresh (a crashed instance's users drop out). */
export const PRESENCE_TTL_MS = 60_000;
/** Each member is rewritten once it is this old, a few members per tick (at most 1.5 × this between writes). */
const REFRESH_MS = 20_000;
const ADMIN_STATUS_CACHE_MS = 1000;
/** An ended guest session is remembered as long as its cookie could still be valid. */
const ENDED_GUEST_TTL_MS = GUEST_SESSION_DAYS * 86_400_000;
const KEY = { endedGuest: 'chat:guest-ended:', online: 'chat:online', admins: 'chat:online-admins', users: 'chat:users', available: 'chat:admin-available', channel: 'chat:events' };

/**
 * A resync asks for what was stored from this long before the outage was noticed: the outage may
 * be noticed a few seconds late (two missed PINGs) and message times come from each instance's clock.
 */
export const RESYNC_MARGIN_MS = 30_000;

/** Sockets a broadcast reaches per event-loop turn. */
export const BROADCAST_CHUNK = 500;

/** How often an instance looks whether administrators came or went (heartbeats lapse silently). */
export const ADMIN_STATUS_CHECK_MS = 5000;
/** An administrator's active-until in Redis is rewritten at most this often per administrator. */
const ACTIVITY_WRITE_MS = 5000;

export interface ChatHubOptions {
  redis?: Redis | undefined;
  /** Whether Redis is reachable now (app.ctx.redisHealth.isUp): while it is not, everything stays on this instance. */
  isRedisUp?: () => boolean;
  now?: () => number;
  /** Logs a failure of shared state (Redis) that was absorbed. */
  onError?: (err: unknown, what: string) => void;
  activityLapseMs?: number;
  adminStatusCheckMs?: number;
}

export function createChatHub(opts: ChatHubOptions = {}): ChatHub {
  const now = opts.now ?? Date.now;
  const lapseMs = opts.activityLapseMs ?? CHAT_ADMIN_ACTIVITY_LAPSE_MS;
  const instanceId = randomBytes(6).toString('hex');
  const local = new Map<string, { identity: ChatIdentity; sockets: Set<ChatSocket>; lastSeen: number; activeAt: number; activityWrittenAt: number }>();
  const admins = new Set<string>();
  const onError = opts.onError ?? (() => undefined);

  // Shared state: Redis when configured, otherwise these maps.
  const memPresence = new Map<string, { entry: PresenceEntry; expiresAt: number }>();
  const memAvailable = new Map<string, boolean>();
  const memEnded = new Map<string, number>();
  const memAdminActive = new Map<string, number>();
  const redis = opts.redis;
  const isRedisUp = opts.isRedisUp ?? (() => true);
  /** Redis when it is configured and reachable now; otherwise this instance's maps. */
  const shared = (): Redis | undefined => (redis && isRedisUp() ? redis : undefined);
  const subscriber = redis?.duplicate();
  // The subscriber reconnects (and resubscribes) by itself; its errors are the outage already
  // reported by redisHealth, and must not be unhandled 'error' events.
  subscriber?.on('error', () => undefined);

  // Fan-out lost in an outage (issue: messages stored but never delivered across instances). While
  // Redis is away, or this instance's subscription is, events between instances are lost: the gap
  // begins at the first sign of it (`gapSince`), and the targets of messages that could not be
  // published are kept. Once both the commands and the subscription are back, this instance's
  // sockets are told to resync from before the gap, and so are the other instances' sockets of
  // those targets (one PUBLISH).
  let gapSince: number | null = null;
  const lostTargets = new Map<string, ChatTarget>();
  let subscriberLive = false;
  let everSubscribed = false;
  const resyncListeners: Array<(since: string) => void> = [];
  const markGap = (at = now()) => { if (gapSince === null || at < gapSince) gapSince = at; };
  const targetKey = (t: ChatTarget) => (t.to === 'user' ? `user:${t.userId}` : t.to);
  /** Messages for these targets did not reach the other instances. */
  function keepLost(targets: ChatTarget[]) {
    if (lostTargets.has('all')) return;
    // Past this many conversations one resync for every socket is cheaper to send.
    if (lostTargets.size > 10_000) { lostTargets.clear(); lostTargets.set('all', { to: 'all' }); return; }
    for (const t of targets) lostTargets.set(targetKey(t), t);
  }
  function settle() {
    const r = shared();
    if (gapSince === null || !r || (subscriber && !subscriberLive)) return;
    const began = gapSince;
    const since = new Date(began - RESYNC_MARGIN_MS).toISOString();
    gapSince = null;
    const targets = [...lostTargets.values()];
    lostTargets.clear();
    for (const fn of resyncListeners) {
      try { fn(since); } catch (err) { onError(err, 'resync listener'); }
    }
    if (!targets.length) return;
    r.publish(KEY.channel, JSON.stringify({ targets, event: { type: 'resync', since }, origin: instanceId } satisfies Envelope))
      .catch((err: unknown) => {
        // Redis went away again: the next return tells them.
        onError(err, 'resync');
        markGap(began);
        keepLost(targets);
      });
  }
  if (subscriber) {
    subscriber.on('close', () => {
      if (subscriberLive) markGap();
      subscriberLive = false;
    });
    // On a reconnect ioredis resubscribes by itself; SUBSCRIBE again (a no-op for Redis) to know
    // when the subscription is in force: only then can a catch-up miss nothing.
    subscriber.on('ready', () => {
      if (!everSubscribed) return;
      subscriber.subscribe(KEY.channel).then(() => {
        subscriberLive = true;
        settle();
      }, (err: unknown) => onError(err, 'subscribe'));
    });
  }

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
      } else if (target.to === 'customers') {
        for (const l of local.values()) if (!l.identity.isAdmin && !l.identity.isGuest) for (const s of l.sockets) recipients.add(s);
      } else {
        for (const l of local.values()) for (const s of l.sockets) recipients.add(s);
      }
    }
    if (targets.some((t) => t.to === 'all' || t.to === 'customers')) broadcast([...recipients], data);
    else for (const s of recipients) sendTo(s, data);
    if (event.type === 'admin-status') noteAdminStatus(event.isOnline, false);
  }

  function sendTo(s: ChatSocket, data: string) {
    try { s.send(data); } catch { /* a closing socket */ }
  }

  // A broadcast (administrator status to every socket) goes out BROADCAST_CHUNK sockets per
  // event-loop turn: 5,000 sends in one turn held every chat message behind them. Broadcasts keep
  // their order (one queue); a conversation's messages are not held behind them.
  const broadcasts: Array<{ sockets: ChatSocket[]; data: string; next: number }> = [];
  function broadcast(sockets: ChatSocket[], data: string) {
    broadcasts.push({ sockets, data, next: 0 });
    if (broadcasts.length === 1) sendBroadcastChunk();
  }
  function sendBroadcastChunk() {
    const job = broadcasts[0];
    if (!job) return;
    const end = Math.min(job.next + BROADCAST_CHUNK, job.sockets.length);
    for (; job.next < end; job.next += 1) sendTo(job.sockets[job.next]!, job.data);
    if (job.next >= job.sockets.length) broadcasts.shift();
    if (broadcasts.length) setImmediate(sendBroadcastChunk);
  }

  function endLocal(userId: string) {
    for (const s of local.get(userId)?.sockets ?? []) {
      try { s.end?.(); } catch { /* already closed */ }
    }
  }

  function recheckLocal(userId: string) {
    for (const s of local.get(userId)?.sockets ?? []) {
      try { s.recheck?.(); } catch (err) { onError(err, 'recheck'); }
    }
  }

  const ready = subscriber
    ? subscriber.subscribe(KEY.channel).then(() => {
      subscriberLive = true;
      everSubscribed = true;
      subscriber.on('message', (_channel: string, raw: string) => {
        try {
          const env = JSON.parse(raw) as Envelope;
          // This instance delivered its own events when they were published.
          if (env.origin === instanceId) return;
          if (env.endSessionOf) endLocal(env.endSessionOf);
          if (env.recheckOf) recheckLocal(env.recheckOf);
          if (env.event) deliverLocal(env.targets, env.event);
        } catch { /* not ours */ }
      });
    })
    : Promise.resolve();
  // Sockets attach without waiting for Redis: a start during an outage still serves chat locally.
  const subscribed = ready.catch((err: unknown) => onError(err, 'subscribe'));

  const entryOf = (identity: ChatIdentity, lastSeen: number): PresenceEntry => ({
    id: identity.id, name: identity.name, email: identity.email, isGuest: identity.isGuest, isAdmin: identity.isAdmin,
    lastSeen: new Date(lastSeen).toISOString(),
  });

  /**
   * Presence is always kept in this instance's maps too (its own sockets), so it can fall back to
   * them at once when Redis goes away. An administrator's member in the administrators' set is
   * scored by when their activity lapses, not by the socket's lease.
   */
  async function writePresence(entries: Array<{ entry: PresenceEntry; activeUntil?: number }>) {
    if (!entries.length) return;
    const expiresAt = now() + PRESENCE_TTL_MS;
    for (const { entry, activeUntil } of entries) {
      memPresence.set(entry.id, { entry, expiresAt });
      if (entry.isAdmin && activeUntil !== undefined) memAdminActive.set(entry.id, activeUntil);
    }
    const r = shared();
    if (!r) return;
    // One variadic command per key, whatever the number of entries.
    const online: Array<string | number> = [];
    const activeAdmins: Array<string | number> = [];
    const users: string[] = [];
    for (const { entry, activeUntil } of entries) {
      online.push(expiresAt, entry.id);
      if (entry.isAdmin && activeUntil !== undefined) activeAdmins.push(activeUntil, entry.id);
      users.push(entry.id, JSON.stringify(entry));
    }
    const multi = r.multi().zadd(KEY.online, ...online).hset(KEY.users, ...users);
    if (activeAdmins.length) multi.zadd(KEY.admins, ...activeAdmins);
    await multi.exec().catch((err: unknown) => onError(err, 'presence'));
  }

  async function removePresence(id: string) {
    memPresence.delete(id);
    memAdminActive.delete(id);
    const r = shared();
    if (!r) return;
    await r.multi().zrem(KEY.online, id).zrem(KEY.admins, id).hdel(KEY.users, id).exec().catch((err: unknown) => onError(err, 'presence'));
  }

  function readLocalPresence(): PresenceEntry[] {
    const t = now();
    const out: PresenceEntry[] = [];
    for (const [id, v] of memPresence) {
      if (v.expiresAt <= t) memPresence.delete(id);
      else out.push(v.entry);
    }
    return out;
  }

  async function readPresence(): Promise<PresenceEntry[]> {
    const r = shared();
    if (!r) return readLocalPresence();
    try {
      const ids = await r.zrangebyscore(KEY.online, now(), '+inf');
      if (!ids.length) return [];
      const raw = await r.hmget(KEY.users, ...ids);
      return raw.flatMap((x) => (x ? [JSON.parse(x) as PresenceEntry] : []));
    } catch (err) {
      onError(err, 'presence');
      return readLocalPresence();
    }
  }

  const presenceOf = (l: { identity: ChatIdentity; lastSeen: number; activeAt: number }) => ({
    entry: entryOf(l.identity, l.lastSeen),
    ...(l.identity.isAdmin ? { activeUntil: l.activeAt + lapseMs } : {}),
  });

  // This instance's members are rewritten so they outlive PRESENCE_TTL_MS: each once it is
  // REFRESH_MS old, spread over time (all at once, 5,000 sockets stalled delivery for 0.3 s).
  const renewal = createSpreadRenewal<string>({
    periodMs: REFRESH_MS,
    now,
    renew: (ids) => {
      const entries = ids.flatMap((id) => { const l = local.get(id); return l ? [presenceOf(l)] : []; });
      void writePresence(entries).catch(() => undefined);
    },
  });
  // Expired members (a crashed instance's) are dropped now and then.
  const sweeper = setInterval(() => {
    const r = shared();
    if (r) void r.multi().zremrangebyscore(KEY.online, '-inf', now()).zremrangebyscore(KEY.admins, '-inf', now()).exec().catch(() => undefined);
  }, REFRESH_MS);
  sweeper.unref();

  // Heartbeats lapse without any event: every instance looks now and then whether "an
  // administrator is online" changed and tells its own sockets.
  const statusListeners: Array<(online: boolean) => void> = [];
  let lastAdminStatus: boolean | null = null;

  /** `announce`: tell this instance's sockets too (a lapse found by the check, not an event). */
  function noteAdminStatus(online: boolean, announce: boolean) {
    if (online === lastAdminStatus) return;
    lastAdminStatus = online;
    if (announce) deliverLocal([{ to: 'all' }], { type: 'admin-status', isOnline: online });
    for (const fn of statusListeners) {
      try { fn(online); } catch (err) { onError(err, 'admin status listener'); }
    }
  }
  const statusChecker = setInterval(() => {
    adminOnlineCache = null;
    if (!local.size) return;
    void hub.isAdminOnline().then((online) => noteAdminStatus(online, true), (err: unknown) => onError(err, 'admin status'));
  }, opts.adminStatusCheckMs ?? ADMIN_STATUS_CHECK_MS);
  statusChecker.unref();

  // Read for every customer message: cached briefly, and dropped whenever a status change is
  // broadcast (connect, disconnect, toggle) on any instance.
  let adminOnlineCache: { value: boolean; until: number } | null = null;
  async function isAvailable(adminId: string): Promise<boolean> {
    const r = shared();
    if (r) {
      try {
        return (await r.hget(KEY.available, adminId)) !== '0';
      } catch (err) {
        onError(err, 'availability');
      }
    }
    return memAvailable.get(adminId) ?? true;
  }
  function localActiveAdmins(): string[] {
    const t = now();
    return [...memAdminActive].filter(([id, until]) => until > t && (memPresence.get(id)?.expiresAt ?? 0) > t).map(([id]) => id);
  }
  async function readAdminOnline(): Promise<boolean> {
    // Only the administrators' set is read: this runs for every customer message.
    let onlineAdmins: string[];
    const r = shared();
    if (r) {
      try {
        onlineAdmins = await r.zrangebyscore(KEY.admins, now(), '+inf');
      } catch (err) {
        onError(err, 'presence');
        onlineAdmins = localActiveAdmins();
      }
    } else {
      onlineAdmins = localActiveAdmins();
    }
    if (!onlineAdmins.length) return false;
    for (const id of onlineAdmins) if (await isAvailable(id)) return true;
    return false;
  }

  const hub: ChatHub = {
    instanceId,
    async attach(identity, socket) {
      if (isRedisUp()) await subscribed;
      const t = now();
      let entry = local.get(identity.id);
      if (entry) {
        entry.sockets.add(socket);
        entry.identity = identity;
        entry.lastSeen = t;
        entry.activeAt = t;
        entry.activityWrittenAt = t;
      } else {
        entry = { identity, sockets: new Set([socket]), lastSeen: t, activeAt: t, activityWrittenAt: t };
        local.set(identity.id, entry);
      }
      if (identity.isAdmin) admins.add(identity.id);
      renewal.written(identity.id);
      await writePresence([presenceOf(entry)]);
      if (identity.isAdmin) adminOnlineCache = null;
    },
    async detach(identity, socket) {
      const existing = local.get(identity.id);
      if (!existing) return;
      existing.sockets.delete(socket);
      if (existing.sockets.size) return;
      local.delete(identity.id);
      admins.delete(identity.id);
      renewal.delete(identity.id);
      await removePresence(identity.id);
      if (identity.isAdmin) adminOnlineCache = null;
    },
    touch(identity) {
      const existing = local.get(identity.id);
      if (existing) existing.lastSeen = now();
    },
    activity(identity) {
      const existing = local.get(identity.id);
      if (!existing || !identity.isAdmin) return;
      const t = now();
      const lapsed = existing.activeAt + lapseMs <= t;
      existing.activeAt = t;
      existing.lastSeen = t;
      if (!lapsed && t - existing.activityWrittenAt < ACTIVITY_WRITE_MS) return;
      existing.activityWrittenAt = t;
      renewal.written(identity.id);
      void writePresence([presenceOf(existing)]).then(() => {
        if (!lapsed) return;
        // Back after a lapse: everyone learns it at once rather than at the next check.
        return hub.broadcastAdminStatus();
      }).catch((err: unknown) => onError(err, 'activity'));
    },
    async recheck(userId) {
      recheckLocal(userId);
      const r = shared();
      if (r) await r.publish(KEY.channel, JSON.stringify({ targets: [], origin: instanceId, recheckOf: userId } satisfies Envelope)).catch((err: unknown) => onError(err, 'recheck'));
    },
    onAdminStatusChange(fn) { statusListeners.push(fn); },
    deliverLocal(target, event) { deliverLocal(Array.isArray(target) ? target : [target], event); },
    async publish(target, event) {
      const targets = Array.isArray(target) ? target : [target];
      deliverLocal(targets, event);
      // While Redis is down, events reach this instance's sockets only; the targets of the messages
      // are kept, and when Redis returns their sockets on every instance are told to resync
      // (presence and status are re-sent by themselves).
      const lost = () => {
        markGap();
        if (event.type === 'message') keepLost(targets);
      };
      const r = shared();
      if (!r) {
        if (redis) lost();
        return;
      }
      await r.publish(KEY.channel, JSON.stringify({ targets, event, origin: instanceId } satisfies Envelope)).catch((err: unknown) => {
        onError(err, 'publish');
        lost();
      });
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
      memAvailable.set(adminId, available);
      const r = shared();
      if (r) await r.hset(KEY.available, adminId, available ? '1' : '0').catch((err: unknown) => onError(err, 'availability'));
    },
    async broadcastAdminStatus() {
      adminOnlineCache = null;
      const isOnline = await hub.isAdminOnline();
      await hub.publish({ to: 'all' }, { type: 'admin-status', isOnline });
    },
    async endGuest(guestId) {
      if (!guestId.includes('guest')) return;
      if (memEnded.size > 100_000) memEnded.clear();
      memEnded.set(guestId, now() + ENDED_GUEST_TTL_MS);
      const r = shared();
      if (r) {
        try {
          await r.set(`${KEY.endedGuest}${guestId}`, '1', 'PX', ENDED_GUEST_TTL_MS);
          await r.publish(KEY.channel, JSON.stringify({ targets: [], origin: instanceId, endSessionOf: guestId } satisfies Envelope));
        } catch (err) {
          onError(err, 'end guest');
        }
      }
      endLocal(guestId);
    },
    async isGuestEnded(guestId) {
      const until = memEnded.get(guestId);
      if (until !== undefined && until > now()) return true;
      const r = shared();
      if (!r) return false;
      try {
        return (await r.exists(`${KEY.endedGuest}${guestId}`)) === 1;
      } catch (err) {
        onError(err, 'end guest');
        return false;
      }
    },
    localSockets() {
      return [...local.values()].flatMap((l) => [...l.sockets]);
    },
    redisChanged(up) {
      if (!redis) return;
      if (up) settle();
      else markGap();
    },
    onResync(fn) { resyncListeners.push(fn); },
    async close() {
      renewal.close();
      broadcasts.length = 0;
      clearInterval(sweeper);
      clearInterval(statusChecker);
      for (const id of local.keys()) await removePresence(id).catch(() => undefined);
      local.clear();
      if (subscriber) await subscriber.quit().catch(() => undefined);
    },
  };
  return hub;
}
