import { useRef } from 'react';

/**
 * A random `Idempotency-Key` (32 hex characters). `crypto.getRandomValues` rather than
 * `crypto.randomUUID`: the latter exists only on secure pages, and a development shop opened from
 * another device is plain http (README, "Trying the shop from another device").
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The key of one money-moving form (a refund or cancel dialog, mounted per opening): `keyFor(body)`
 * answers the same key while the request is the same, so a retry after a lost answer or a 5xx is
 * recognised by the server and never moves money twice; a changed request gets a new key (the
 * server refuses a key reused for another request).
 */
export function useIdempotencyKey(): (body: unknown) => string {
  const last = useRef<{ key: string; body: string } | null>(null);
  return (body: unknown) => {
    const text = JSON.stringify(body);
    if (last.current?.body !== text) last.current = { key: newIdempotencyKey(), body: text };
    return last.current.key;
  };
}
