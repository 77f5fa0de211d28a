/**
 * One timer for every socket's heartbeat instead of one interval per socket. Sockets are dealt
 * round-robin into `slots` buckets and one bucket is visited per tick, so each socket is still
 * visited once per `periodMs`, but thousands of sockets that connected in the same second are
 * spread over the whole period instead of all pinging (and being checked) in one burst.
 */
export interface HeartbeatWheel {
  /** Adds a beat; the returned function removes it. */
  add(beat: () => void): () => void;
  stop(): void;
}

export function createHeartbeatWheel(periodMs: number, slots = 25): HeartbeatWheel {
  const buckets = Array.from({ length: slots }, () => new Set<() => void>());
  let next = 0;
  let dealt = 0;
  const timer = setInterval(() => {
    const bucket = buckets[next]!;
    next = (next + 1) % slots;
    for (const beat of bucket) beat();
  }, Math.max(1, Math.round(periodMs / slots)));
  timer.unref();
  return {
    add(beat) {
      const bucket = buckets[dealt++ % slots]!;
      bucket.add(beat);
      return () => { bucket.delete(beat); };
    },
    stop() { clearInterval(timer); },
  };
}
