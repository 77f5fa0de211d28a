import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Mail bodies at rest (the `outbox` table): sealed with AES-256-GCM under a key derived with HKDF
 * (SHA-256) from DATA_ENCRYPTION_KEY, or JWT_SECRET when that is unset. The key is in neither the
 * database nor a backup, so neither hands out the links (password reset, set-password, sign-up) a
 * mail carries. A sealed value is `sealed:v1:` + base64(nonce 12 bytes | ciphertext | tag 16 bytes).
 */
export const SEALED_PREFIX = 'sealed:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = 'shop outbox';
const HKDF_INFO = 'mail bodies at rest v1';

export interface MailSealer {
  seal(plain: string): string;
  /** The plain text of a sealed value; a value that is not sealed (older rows) is returned as it is. */
  open(value: string): string;
}

export class SealError extends Error {}

export function isSealed(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

export function createMailSealer(secret: string): MailSealer {
  const key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, 32));
  return {
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    },
    open(value) {
      if (!isSealed(value)) return value;
      const raw = Buffer.from(value.slice(SEALED_PREFIX.length), 'base64');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SealError('A sealed mail body is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SealError('A sealed mail body cannot be opened with this key (DATA_ENCRYPTION_KEY or JWT_SECRET changed?)');
      }
    },
  };
}
