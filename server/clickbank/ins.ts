/**
 * ClickBank Instant Notification (INS v6+) encryption, as CONTRACT.md pins it: the body is
 * `{notification, iv}`, both base64; the cipher is AES-256-CBC with PKCS#7 padding; the key is the
 * ASCII text of the first 32 hex characters of SHA-1(secret key); the IV is the base64-decoded `iv`
 * (16 bytes). Used by the maintenance ping (which=secret) to prove the configured secret works.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** An encrypted INS body as ClickBank posts it. */
export interface InsEnvelope {
  /** base64 of the AES-256-CBC ciphertext. */
  notification: string;
  /** base64 of the 16-byte IV. */
  iv: string;
}

/** The 32-byte AES key of `secretKey`: ASCII of the first 32 hex characters of its SHA-1. */
export function insKey(secretKey: string): Buffer {
  return Buffer.from(
    createHash('sha1').update(secretKey, 'utf8').digest('hex').slice(0, 32),
    'ascii',
  );
}

/** Encrypts `plaintext` (the notification JSON) with `secretKey` → InsEnvelope; `iv` defaults to 16 random bytes. */
export function encryptIns(
  plaintext: string,
  secretKey: string,
  iv: Buffer = randomBytes(16),
): InsEnvelope {
  const cipher = createCipheriv('aes-256-cbc', insKey(secretKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { notification: body.toString('base64'), iv: iv.toString('base64') };
}

/**
 * Decrypts an InsEnvelope with `secretKey` → the plaintext (UTF-8). Throws when the IV is not
 * 16 bytes or the padding is wrong (a wrong key, almost always).
 */
export function decryptIns(envelope: InsEnvelope, secretKey: string): string {
  const iv = Buffer.from(envelope.iv, 'base64');
  if (iv.length !== 16) throw new Error(`The IV must be 16 bytes, got ${iv.length}`);
  const decipher = createDecipheriv('aes-256-cbc', insKey(secretKey), iv);
  return Buffer.concat([
    decipher.update(Buffer.from(envelope.notification, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}

/** A TEST notification as ClickBank's "Test" button sends it (JSON v6 shape; no customer data). */
export function testNotification(now: Date): Record<string, unknown> {
  return {
    transactionTime: now.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    receipt: '********',
    transactionType: 'TEST',
    vendor: 'testvendor',
    role: 'VENDOR',
    totalAccountAmount: 0,
    paymentMethod: 'TEST',
    totalOrderAmount: 0,
    currency: 'USD',
    lineItems: [],
    version: 6.0,
    attemptCount: 1,
  };
}
