/**
 * Admin password hashing with node:crypto scrypt. Format: 'scrypt$N$r$p$saltB64$hashB64'
 * (ServerConfig.adminPasswordHash). Verification is constant-time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const DEFAULT_PARAMS = { N: 16384, r: 8, p: 1 } as const;
/** Upper bound on scrypt working memory (bytes) a stored hash may demand. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
const HASH_PATTERN =
  /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function scryptAsync(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Parsed parts of a stored hash, or null when the text is not a valid 'scrypt$N$r$p$salt$hash'. */
export function parsePasswordHash(
  stored: string,
): { N: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  const m = HASH_PATTERN.exec(stored.trim());
  if (!m) return null;
  const N = Number(m[1]);
  const r = Number(m[2]);
  const p = Number(m[3]);
  // N must be a power of two > 1; keep r·p and N bounded so a hostile hash cannot exhaust memory.
  if (N < 2 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  if (128 * N * r > MAX_SCRYPT_MEMORY) return null;
  const salt = Buffer.from(m[4] ?? '', 'base64');
  const hash = Buffer.from(m[5] ?? '', 'base64');
  if (salt.length < 8 || hash.length < 16) return null;
  return { N, r, p, salt, hash };
}

/** Hashes a password with scrypt (N=16384, r=8, p=1, 16-byte random salt) → 'scrypt$N$r$p$salt$hash' (CONTRACT.md auth; brief: keep only the hash). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = DEFAULT_PARAMS;
  const key = await scryptAsync(password, salt, KEY_LENGTH, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * True when `password` matches the stored scrypt hash; constant-time comparison of the derived keys.
 * A malformed stored hash answers false (never throws), after doing comparable work.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) {
    await scryptAsync(password, Buffer.alloc(16), KEY_LENGTH, {
      ...DEFAULT_PARAMS,
      maxmem: 64 * 1024 * 1024,
    });
    return false;
  }
  const { N, r, p, salt, hash } = parsed;
  const key = await scryptAsync(password, salt, hash.length, {
    N,
    r,
    p,
    maxmem: MAX_SCRYPT_MEMORY + 1024 * 1024,
  });
  return key.length === hash.length && timingSafeEqual(key, hash);
}
