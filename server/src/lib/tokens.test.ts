import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner, hashToken, newOpaqueToken } from './tokens.ts';

const SECRET = 'k'.repeat(40);

describe('access tokens (JWT, HS256)', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('round-trips subject and session id', async () => {
    const signer = createTokenSigner(SECRET, 60);
    const token = await signer.sign({ sub: 'a'.repeat(24), sid: 'b'.repeat(24) });
    expect(await signer.verify(token)).toEqual({ sub: 'a'.repeat(24), sid: 'b'.repeat(24) });
  });

  it('rejects expired, tampered, foreign-key and unsigned tokens', async () => {
    const signer = createTokenSigner(SECRET, 60);
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({ sid: 's' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(key);
    expect(await signer.verify(expired)).toBeNull();

    const good = await signer.sign({ sub: 'u', sid: 's' });
    const [h, p, s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'admin', sid: 's', exp: 9_999_999_999 })).toString('base64url');
    expect(await signer.verify(`${h}.${forgedPayload}.${s}`)).toBeNull();
    expect(await signer.verify(`${h}.${p}.${s}x`)).toBeNull();

    expect(await createTokenSigner('o'.repeat(40), 60).verify(good)).toBeNull();

    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect(await signer.verify(none)).toBeNull();
    expect(await signer.verify('garbage')).toBeNull();
  });

  it('remembers a verified token only until it expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const signer = createTokenSigner(SECRET, 60);
    const token = await signer.sign({ sub: 'u', sid: 's' });
    expect(await signer.verify(token)).toEqual({ sub: 'u', sid: 's' });
    vi.setSystemTime(Date.now() + 59_000);
    expect(await signer.verify(token)).toEqual({ sub: 'u', sid: 's' }); // from the cache
    vi.setSystemTime(Date.now() + 2_000);
    expect(await signer.verify(token)).toBeNull();
    // A tampered copy of a remembered token is still refused.
    const fresh = await signer.sign({ sub: 'u', sid: 's' });
    expect(await signer.verify(fresh)).not.toBeNull();
    expect(await signer.verify(`${fresh}x`)).toBeNull();
  });

  it('requires both claims', async () => {
    const key = new TextEncoder().encode(SECRET);
    const noSid = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setExpirationTime('1m').sign(key);
    expect(await createTokenSigner(SECRET, 60).verify(noSid)).toBeNull();
  });
});

describe('opaque tokens', () => {
  it('are long, URL-safe, unique, and stored as a SHA-256 hex hash', () => {
    const a = newOpaqueToken();
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(newOpaqueToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});
