import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const GUEST_COOKIE = 'chat_guest';
export const GUEST_SESSION_DAYS = 7;

export interface GuestSession {
  guestId: string;
  name: string;
  email: string;
  /** When the guest identified (ms since the epoch). */
  timestamp: number;
}

/** An unguessable guest id made by the server (never chosen by the browser); it contains 'guest'. */
export function newGuestId(): string {
  return `guest_${randomBytes(16).toString('base64url')}`;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('chat-guest-session').digest();

/** `payload.signature`, both base64url: the cookie cannot be forged or edited without the server's secret. */
export function signGuestSession(secret: string, session: GuestSession): string {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  const signature = createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');
  return `${payload}.${signature}`;
}

export function verifyGuestSession(secret: string, value: string | undefined, now = Date.now()): GuestSession | null {
  if (!value || value.length > 2048) return null;
  const [payload, signature, extra] = value.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = createHmac('sha256', keyOf(secret)).update(payload).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const s = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as GuestSession;
    if (typeof s.guestId !== 'string' || !s.guestId.includes('guest') || typeof s.name !== 'string' || typeof s.email !== 'string') return null;
    if (typeof s.timestamp !== 'number' || now - s.timestamp > GUEST_SESSION_DAYS * 86_400_000) return null;
    return s;
  } catch {
    return null;
  }
}
