/**
 * The password rule for every operator password: the bootstrap ADMIN_PASSWORD off loopback, an
 * accepted invite, a password change (OWASP ASVS 5.0 V6.2): at least 12 characters besides
 * whitespace (so twelve spaces, or a word padded with them, do not count), and not a common password. "Common" is a case-insensitive match of the password,
 * with its whitespace removed, against zxcvbn-ts's ranked list of ~49k passwords seen in breaches
 * (so "admin" padded with spaces is as common as "admin"), or against the operator's own email.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

/** Fewest characters a password may have. */
export const MIN_PASSWORD_LENGTH = 12;
/** Most characters a password may have (a longer one is only hashing work). */
export const MAX_PASSWORD_LENGTH = 256;

let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/**
 * Why `password` is refused, as a sentence for the operator, or null when it is acceptable.
 * `email` (optional) is the account's own email, which is refused too, whole or its local part.
 */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  const squeezed = password.replace(/\s+/gu, '').toLowerCase();
  if (squeezed === '') return 'A password cannot be only spaces.';
  if ([...squeezed].length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters, not counting spaces.`;
  }
  const own = email?.toLowerCase();
  if (
    commonPasswords().has(squeezed) ||
    (own !== undefined && (squeezed === own || squeezed === own.split('@')[0]))
  ) {
    return 'This password is too common. Choose one that is not on lists of leaked passwords.';
  }
  return null;
}
