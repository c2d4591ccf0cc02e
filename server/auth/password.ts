/**
 * Admin password hashing with node:crypto scrypt. Format: 'scrypt$N$r$p$saltB64$hashB64'
 * (ServerConfig.adminPasswordHash). Verification is constant-time. Default cost N=2^17, r=8, p=1
 * (128 MiB, OWASP's scrypt minimum); a supplied ADMIN_PASSWORD_HASH below that
 * cost is refused at start-up (isStrongPasswordHash).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
/** Default scrypt cost: N=2^17, r=8, p=1 → 128 MiB of working memory per check. */
export const DEFAULT_SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const DEFAULT_PARAMS = DEFAULT_SCRYPT_PARAMS;
/** Minimum accepted cost of a supplied hash: 128·N·r ≥ 128 MiB, salt ≥ 16 bytes, key ≥ 32 bytes. */
export const MIN_SCRYPT_MEMORY = 128 * 2 ** 17 * 8;
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

/** Whether a parsed or stored hash meets the minimum cost (MIN_SCRYPT_MEMORY, 16-byte salt, 32-byte key). */
export function isStrongPasswordHash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  return (
    128 * parsed.N * parsed.r >= MIN_SCRYPT_MEMORY &&
    parsed.salt.length >= 16 &&
    parsed.hash.length >= 32
  );
}

/** Options of hashPassword: the cost (default DEFAULT_SCRYPT_PARAMS) and a fixed 16-byte salt (default random). */
export interface HashOptions {
  N?: number;
  r?: number;
  p?: number;
  salt?: Buffer;
}

/**
 * Hashes a password with scrypt (default N=2^17, r=8, p=1 and a 16-byte random salt) →
 * 'scrypt$N$r$p$salt$hash' (CONTRACT.md auth; keep only the hash). Tests pass a lower N to stay
 * fast; server/config.ts passes a salt derived from the JWT secret so that a restart with the
 * same password keeps the same hash (and so the sessions: server/auth/session.ts).
 */
export async function hashPassword(password: string, options: HashOptions = {}): Promise<string> {
  const salt = options.salt ?? randomBytes(16);
  const N = options.N ?? DEFAULT_PARAMS.N;
  const r = options.r ?? DEFAULT_PARAMS.r;
  const p = options.p ?? DEFAULT_PARAMS.p;
  const key = await scryptAsync(password, salt, KEY_LENGTH, {
    N,
    r,
    p,
    maxmem: 128 * N * r * 2 + 1024 * 1024,
  });
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
      maxmem: MAX_SCRYPT_MEMORY + 1024 * 1024,
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
