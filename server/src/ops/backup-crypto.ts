import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Encrypted backups: the backup tar sealed with AES-256-GCM under a key derived from a passphrase
 * with scrypt. Layout:
 *
 *   header (61 bytes, also the GCM additional data, so it cannot be altered unnoticed)
 *     magic "SHOPBAK\x01" (8) | log2 N (1) | r (1) | p (1) | salt (16) | nonce (12) | key check (16) | reserved (6)
 *   ciphertext of the tar
 *   GCM tag (16)
 *
 * The key check (SHA-256 of a second scrypt-derived key, truncated) tells a wrong passphrase at
 * once, before anything is decrypted; the tag proves at the end that no byte was changed.
 */
export const ENCRYPTED_MAGIC = Buffer.from('SHOPBAK\x01', 'latin1');
const HEADER_BYTES = 61;
const SALT_BYTES = 16;
const NONCE_BYTES = 12;
const CHECK_BYTES = 16;
const TAG_BYTES = 16;
const DEFAULT_LOG_N = 15;
const R = 8;
const P = 1;

export class WrongPassphraseError extends Error {}

function scrypt(passphrase: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(passphrase.normalize('NFC'), salt, 64, { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const checkOf = (derived: Buffer) => createHash('sha256').update(derived.subarray(32)).digest().subarray(0, CHECK_BYTES);

/** Whether a file starts with the encrypted-backup magic. */
export async function isEncryptedBackup(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(ENCRYPTED_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(ENCRYPTED_MAGIC);
  } finally {
    await handle.close();
  }
}

/** Encrypts `source` into `target`. */
export async function encryptFile(source: string, target: string, passphrase: string, opts: { logN?: number } = {}): Promise<void> {
  if (!passphrase) throw new Error('The backup passphrase is empty');
  const logN = opts.logN ?? DEFAULT_LOG_N;
  const salt = randomBytes(SALT_BYTES);
  const nonce = randomBytes(NONCE_BYTES);
  const derived = await scrypt(passphrase, salt, logN, R, P);
  const header = Buffer.concat([ENCRYPTED_MAGIC, Buffer.from([logN, R, P]), salt, nonce, checkOf(derived), Buffer.alloc(6)]);
  const cipher = createCipheriv('aes-256-gcm', derived.subarray(0, 32), nonce);
  cipher.setAAD(header);
  const out = createWriteStream(target, { mode: 0o600 });
  out.write(header);
  await pipeline(createReadStream(source), cipher, out, { end: false });
  await new Promise<void>((resolve, reject) => out.end(cipher.getAuthTag(), (err?: Error | null) => (err ? reject(err) : resolve())));
}

/**
 * The decrypted contents of an encrypted backup as a stream. A wrong passphrase throws
 * WrongPassphraseError before the stream starts; a changed byte makes the stream fail at its end
 * ("Unsupported state or unable to authenticate data"), so whoever reads it must finish reading
 * before trusting what it read.
 */
export async function decryptingStream(file: string, passphrase: string): Promise<Readable> {
  const size = (await stat(file)).size;
  if (size < HEADER_BYTES + TAG_BYTES) throw new Error('The encrypted backup is truncated');
  const handle = await open(file, 'r');
  const header = Buffer.alloc(HEADER_BYTES);
  const tag = Buffer.alloc(TAG_BYTES);
  try {
    await handle.read(header, 0, HEADER_BYTES, 0);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await handle.close();
  }
  if (!header.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC)) throw new Error('Not an encrypted shop backup');
  const [logN, r, p] = [header[8]!, header[9]!, header[10]!];
  if (logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) throw new Error('The encrypted backup has an unreadable header');
  const salt = header.subarray(11, 11 + SALT_BYTES);
  const nonce = header.subarray(27, 27 + NONCE_BYTES);
  const check = header.subarray(39, 39 + CHECK_BYTES);
  const derived = await scrypt(passphrase, salt, logN, r, p);
  if (!timingSafeEqual(checkOf(derived), check)) throw new WrongPassphraseError('Wrong passphrase for this encrypted backup');
  const decipher = createDecipheriv('aes-256-gcm', derived.subarray(0, 32), nonce);
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  const source = createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 });
  source.on('error', (err) => decipher.destroy(err));
  return source.pipe(decipher);
}

/** The passphrase from --passphrase-file (first line) or BACKUP_PASSPHRASE; undefined when neither. */
export async function readPassphrase(opts: { file?: string | undefined; env?: string | undefined }): Promise<string | undefined> {
  if (opts.file) {
    const text = (await readFile(opts.file, 'utf8')).split(/\r?\n/)[0] ?? '';
    if (!text) throw new Error(`The passphrase file ${opts.file} is empty`);
    return text;
  }
  return opts.env || undefined;
}
