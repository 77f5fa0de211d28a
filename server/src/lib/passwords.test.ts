import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords (argon2id)', () => {
  it('hashes with argon2id and a per-hash salt, and verifies', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'correct horse')).toBe(true);
    expect(await verifyPassword(a, 'correct horsE')).toBe(false);
  });

  it('answers false rather than throwing for a malformed hash', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });

  it('keeps one dummy hash that no password opens', async () => {
    const hash = await dummyPasswordHash();
    expect(await dummyPasswordHash()).toBe(hash);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'password123')).toBe(false);
  });
});
