/**
 * Two-factor sign-in with time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30-second steps,
 * as every authenticator app reads them) through the `otpauth` library, and single-use recovery
 * codes. Secrets are kept sealed (AES-256-GCM under a key derived from JWT_SECRET), so a copy of
 * the database alone cannot mint codes.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { ServerConfig } from '../context';

/** The issuer shown in authenticator apps. */
export const TOTP_ISSUER = 'MG Admin Console';
/** Seconds per code (RFC 6238's default). */
export const TOTP_PERIOD_S = 30;
/** Codes one step before or after the current one are accepted (clock drift). */
export const TOTP_WINDOW = 1;
/** How many recovery codes enrolment issues. */
export const RECOVERY_CODE_COUNT = 10;

function sealKey(config: Pick<ServerConfig, 'jwtSecret'>): Buffer {
  return createHash('sha256').update('mg-totp-seal:').update(config.jwtSecret).digest();
}

/** Seals a base32 secret for storage → 'v1.<base64url iv|tag|ciphertext>'. */
export function sealSecret(config: Pick<ServerConfig, 'jwtSecret'>, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(config), iv);
  const ct = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}`;
}

/** Opens a sealed secret → its base32 text, or null when it cannot be opened (other JWT_SECRET). */
export function openSecret(config: Pick<ServerConfig, 'jwtSecret'>, sealed: string): string | null {
  if (!sealed.startsWith('v1.')) return null;
  try {
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(config), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A fresh 160-bit secret (RFC 4226's recommended length) as base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code, labelled with the email. */
export function otpauthUrl(base32: string, email: string): string {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    secret: Secret.fromBase32(base32),
    period: TOTP_PERIOD_S,
  }).toString();
}

/**
 * The time step (30 s counter) `code` belongs to, when it is a valid code for `base32` at `nowMs`
 * within ±TOTP_WINDOW steps; null otherwise. The caller accepts a step only once (above the last
 * accepted step), so a code cannot be replayed.
 */
export function totpStep(base32: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(base32),
    period: TOTP_PERIOD_S,
    timestamp: nowMs,
    window: TOTP_WINDOW,
  });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_S, timestamp: nowMs }) + delta;
}

/** The current code of `base32` at `nowMs` (tests, and the demo's documentation). */
export function totpCode(base32: string, nowMs: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(base32),
    period: TOTP_PERIOD_S,
    timestamp: nowMs,
  });
}

/** Ten recovery codes, each 'xxxxx-xxxxx' from a 31-character alphabet without look-alikes (~49 bits). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The stored form of a recovery code: hex SHA-256 of its normalised text (case, spaces, dash ignored). */
export function recoveryCodeHash(code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(`mg-recovery:${normal}`).digest('hex');
}
