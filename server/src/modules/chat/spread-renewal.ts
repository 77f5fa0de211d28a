/**
 * Renews leases (presence members, sockets counted per IP) a few at a time instead of all at once.
 *
 * Renewing every lease in one timer tick is O(sockets) work in one event-loop turn: at 5,000
 * sockets it built 10,000 Redis commands per lease kind every 20 s and stalled message delivery
 * for 250–470 ms each time. Here each key is renewed once it is `periodMs` old, on a short tick,
 * and at most twice the steady rate per tick: a burst of keys written at the same moment (a
 * reconnect storm) is spread over at most periodMs / 2, so no lease gets older than 1.5 × periodMs
 * between renewals (callers keep their lease longer than that).
 */
export interface SpreadRenewal<K> {
  /** Counts `key` as written now (just attached, or written for another reason). */
  written(key: K): void;
  delete(key: K): void;
  /** Renews the keys that are due (the timer calls it every tickMs); returns them. */
  renewDue(): K[];
  close(): void;
}

export const RENEWAL_TICK_MS = 250;
const MIN_PER_TICK = 50;

export function createSpreadRenewal<K>(opts: {
  periodMs: number;
  tickMs?: number;
  now?: () => number;
  /** Writes the due leases (one batch per tick); its failures are its own to handle. */
  renew: (keys: K[]) => void;
}): SpreadRenewal<K> {
  const now = opts.now ?? Date.now;
  const tickMs = opts.tickMs ?? RENEWAL_TICK_MS;
  // Insertion order is the order of the last writes: the keys due first are at the front.
  const writtenAt = new Map<K, number>();

  const renewal: SpreadRenewal<K> = {
    written(key) {
      writtenAt.delete(key);
      writtenAt.set(key, now());
    },
    delete(key) { writtenAt.delete(key); },
    renewDue() {
      const t = now();
      const max = Math.max(MIN_PER_TICK, Math.ceil(((writtenAt.size * tickMs) / opts.periodMs) * 2));
      const due: K[] = [];
      for (const [key, at] of writtenAt) {
        if (at + opts.periodMs > t || due.length >= max) break;
        due.push(key);
      }
      if (!due.length) return due;
      for (const key of due) renewal.written(key);
      opts.renew(due);
      return due;
    },
    close() { clearInterval(timer); },
  };
  const timer = setInterval(() => renewal.renewDue(), tickMs);
  timer.unref();
  return renewal;
}
