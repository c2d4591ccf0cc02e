/**
 * Session texts of §2 (Login screen) and §8 (login codes). Pure.
 */
import { MESSAGES } from './messages';
import type { LoginCode } from './types';

/** §8 login code table, copied exactly. */
export const LOGIN_MESSAGES: Readonly<Record<LoginCode, string>> = {
  INCORRECT_USER: 'Incorrect user',
  INCORRECT_PASSWORD: 'Incorrect password',
  INVALID_JWT: 'Your session has expired. Please sign in again.',
  NO_TOKEN: 'Please sign in.',
  EMPTY_DATABASE: 'The database is empty or not initialized.',
  DB_UNAVAILABLE: 'Backend database is currently unavailable.',
};

/** Whether `code` is one of the §8 login codes. */
export function isLoginCode(code: unknown): code is LoginCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(LOGIN_MESSAGES, code);
}

/**
 * The text to show for a login answer (§8): the table's message for a known code, else the
 * server's `fallbackMessage` when non-blank, else 'Login failed'.
 */
export function loginMessage(
  code: string | null | undefined,
  fallbackMessage?: string | null,
): string {
  if (isLoginCode(code)) return LOGIN_MESSAGES[code];
  const text = fallbackMessage?.trim();
  return text ? text : MESSAGES.loginFailed;
}

/**
 * Which banner a failed login uses (§8): DB_UNAVAILABLE shows the amber notice and does not
 * block signing in; every other code shows the red error.
 */
export function loginBannerKind(code: string | null | undefined): 'notice' | 'error' {
  return code === 'DB_UNAVAILABLE' ? 'notice' : 'error';
}

/** What the login screen's health pings found (§2): all fine, the database down, or no answer. */
export type BackendCheck = 'ok' | 'db_down' | 'unreachable';

/** §2 Login screen notices, copied exactly. */
export const BACKEND_NOTICES = {
  db_down:
    'Backend database is currently unavailable. You can still log in; some features may be limited.',
  unreachable: 'Backend reachability check failed. You can try logging in anyway.',
} as const;

/** The amber notice for a backend check (§2), or null when all is fine. */
export function backendNotice(check: BackendCheck): string | null {
  return check === 'ok' ? null : BACKEND_NOTICES[check];
}
