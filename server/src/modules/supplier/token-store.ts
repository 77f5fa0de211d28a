import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { supplierTokens } from '../../db/schema.ts';

export interface StoredTokens {
  accessToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
  lastLoginAt: Date | null;
}

export interface NewTokens {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
}

/**
 * Where the supplier's API tokens live: in the database, shared by every instance and kept across
 * restarts. One instance at a time renews them (`tryLockRenewal`), the others read the result.
 */
export interface TokenStore {
  /** The stored tokens for this API key (null when there are none, or they belong to another key). */
  read(): Promise<StoredTokens | null>;
  /** Takes the renewal lease for `ms`; false when another instance holds it. */
  tryLockRenewal(ms: number): Promise<boolean>;
  releaseRenewal(): Promise<void>;
  /** Stores fresh tokens (and releases the renewal lease); `login` records a getAccessToken call. */
  save(tokens: NewTokens, opts: { login: boolean; at: Date }): Promise<void>;
  /** Records a getAccessToken attempt (CJ allows one per 5 minutes, successful or not). */
  recordLoginAttempt(at: Date): Promise<void>;
}

const VERSION = 'v1';

/** AES-256-GCM with a key derived from the server secret: a database dump alone does not reveal the tokens. */
function tokenCipher(secret: string, provider: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'supplier-tokens', provider, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return [VERSION, iv.toString('base64url'), body.toString('base64url'), c.getAuthTag().toString('base64url')].join('.');
    },
    /** null when the value was sealed with another secret (the tokens are then fetched again). */
    open(sealed: string | null): string | null {
      if (!sealed) return null;
      const [v, iv, body, tag] = sealed.split('.');
      if (v !== VERSION || !iv || !body || !tag) return null;
      try {
        const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        d.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** A short, non-reversible fingerprint of the API key: a new key means new tokens. */
export const keyFingerprint = (apiKey: string) => createHash('sha256').update(`supplier-key:${apiKey}`).digest('hex').slice(0, 32);

/** The database-backed token store of one provider and API key. */
export function createDbTokenStore(db: Db, opts: { provider: string; apiKey: string; secret: string }): TokenStore {
  const fingerprint = keyFingerprint(opts.apiKey);
  const cipher = tokenCipher(opts.secret, opts.provider);
  const byProvider = eq(supplierTokens.provider, opts.provider);

  /** Creates the row, or resets it when it holds another API key's tokens. */
  async function ensureRow() {
    await db.insert(supplierTokens).values({ provider: opts.provider, keyFingerprint: fingerprint }).onConflictDoNothing();
    await db.update(supplierTokens).set({
      keyFingerprint: fingerprint, accessToken: null, accessTokenExpiresAt: null, refreshToken: null,
      refreshTokenExpiresAt: null, lastLoginAt: null, updatedAt: sql`now()`,
    }).where(and(byProvider, ne(supplierTokens.keyFingerprint, fingerprint)));
  }

  return {
    async read() {
      const [row] = await db.select().from(supplierTokens).where(byProvider).limit(1);
      if (!row) return null;
      if (row.keyFingerprint !== fingerprint) {
        return { accessToken: null, accessTokenExpiresAt: null, refreshToken: null, refreshTokenExpiresAt: null, lastLoginAt: null };
      }
      return {
        accessToken: cipher.open(row.accessToken),
        accessTokenExpiresAt: row.accessTokenExpiresAt,
        refreshToken: cipher.open(row.refreshToken),
        refreshTokenExpiresAt: row.refreshTokenExpiresAt,
        lastLoginAt: row.lastLoginAt,
      };
    },
    async tryLockRenewal(ms) {
      await ensureRow();
      const locked = await db.update(supplierTokens)
        .set({ renewingUntil: sql`now() + (${String(Math.round(ms))}::int * interval '1 millisecond')` })
        .where(and(byProvider, or(isNull(supplierTokens.renewingUntil), lt(supplierTokens.renewingUntil, sql`now()`))))
        .returning({ provider: supplierTokens.provider });
      return locked.length > 0;
    },
    async releaseRenewal() {
      await db.update(supplierTokens).set({ renewingUntil: null }).where(byProvider);
    },
    async save(tokens, { login, at }) {
      await ensureRow();
      await db.update(supplierTokens).set({
        keyFingerprint: fingerprint,
        accessToken: cipher.seal(tokens.accessToken),
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
        refreshToken: cipher.seal(tokens.refreshToken),
        refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
        ...(login ? { lastLoginAt: at } : {}),
        renewingUntil: null,
        updatedAt: sql`now()`,
      }).where(byProvider);
    },
    async recordLoginAttempt(at) {
      await ensureRow();
      await db.update(supplierTokens).set({ lastLoginAt: at, updatedAt: sql`now()` }).where(byProvider);
    },
  };
}
