import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChanges, passwordResets, refreshTokens, sessions, signupRequests, users } from '../../db/schema.ts';
import type { Database } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { openTestDatabase, TEST_DB } from '../../test/test-app.ts';
import { deleteExpiredAuthRows } from './cleanup-expired.ts';

describe(`cleanup of expired sign-in rows on ${TEST_DB}`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => { ({ database, cleanup } = await openTestDatabase()); });
  afterAll(async () => { await cleanup(); });

  it('deletes expired and long-revoked sessions, expired refresh tokens, used or expired links; keeps the rest', async () => {
    const db = database.db;
    const now = new Date();
    const at = (ms: number) => new Date(now.getTime() + ms);
    const hour = 3_600_000;
    const userId = newId();
    await db.insert(users).values({ id: userId, name: 'C', email: 'cleanup@example.com', passwordHash: 'x' });
    const session = async (expiresAt: Date, revokedAt: Date | null, tokenExpiresAt = expiresAt, usedAt: Date | null = null) => {
      const id = newId();
      await db.insert(sessions).values({ id, userId, expiresAt, revokedAt });
      const tokenId = newId();
      await db.insert(refreshTokens).values({ id: tokenId, sessionId: id, tokenHash: `h-${tokenId}`, expiresAt: tokenExpiresAt, usedAt });
      return { id, tokenId };
    };
    const live = await session(at(24 * hour), null, at(24 * hour), at(-hour)); // a used token of a live session stays (reuse detection)
    const revokedRecently = await session(at(24 * hour), at(-hour));
    await session(at(24 * hour), at(-25 * hour)); // revoked over a day ago: goes with its token
    await session(at(-1000), null); // expired
    const link = async (table: typeof passwordResets | typeof signupRequests, expiresAt: Date, usedAt: Date | null) => {
      const id = newId();
      if (table === passwordResets) await db.insert(passwordResets).values({ id, userId, tokenHash: `r-${id}`, expiresAt, usedAt });
      else await db.insert(signupRequests).values({ id, name: 'S', email: `${id}@example.com`, passwordHash: 'x', tokenHash: `s-${id}`, expiresAt, usedAt });
      return id;
    };
    const liveReset = await link(passwordResets, at(hour), null);
    await link(passwordResets, at(-1000), null);
    await link(passwordResets, at(hour), at(-1000));
    const liveSignup = await link(signupRequests, at(hour), null);
    await link(signupRequests, at(-1000), null);
    await link(signupRequests, at(hour), at(-1000));
    const change = async (expiresAt: Date, done: { confirmedAt?: Date; cancelledAt?: Date } = {}) => {
      const id = newId();
      await db.insert(emailChanges).values({ id, userId, newEmail: `${id}@example.com`, tokenHash: `e-${id}`, expiresAt, ...done });
      return id;
    };
    const liveChange = await change(at(hour));
    await change(at(-1000)); // expired
    await change(at(hour), { confirmedAt: at(-1000) }); // used
    await change(at(hour), { cancelledAt: at(-1000) }); // replaced by a newer one, or voided by a password reset

    expect(await deleteExpiredAuthRows(db, now)).toEqual({ sessions: 2, refreshTokens: 1, passwordResets: 2, signupRequests: 2, emailChanges: 3 });
    expect((await db.select().from(sessions)).map((s) => s.id).sort()).toEqual([live.id, revokedRecently.id].sort());
    expect((await db.select().from(refreshTokens)).map((t) => t.id).sort()).toEqual([live.tokenId, revokedRecently.tokenId].sort());
    expect((await db.select().from(passwordResets)).map((r) => r.id)).toEqual([liveReset]);
    expect((await db.select().from(signupRequests)).map((r) => r.id)).toEqual([liveSignup]);
    expect((await db.select().from(emailChanges)).map((r) => r.id)).toEqual([liveChange]);
    // A second run finds nothing.
    expect(await deleteExpiredAuthRows(db, now)).toEqual({ sessions: 0, refreshTokens: 0, passwordResets: 0, signupRequests: 0, emailChanges: 0 });
  });
});
