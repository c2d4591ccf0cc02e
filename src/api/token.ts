/**
 * The admin token (§3 "Stored locally", CONTRACT.md Authentication), kept in local storage under
 * TOKEN_STORAGE_KEY. Storage may be missing or throw (private mode, quota, Node tests): every
 * function is then safe and the token lives in memory for this page's lifetime.
 */
import { TOKEN_STORAGE_KEY } from '../domain/types';

let memoryToken: string | null = null;

function storage(): Storage | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    return null;
  }
}

/** The stored bearer token, or null when none (blank counts as none). Never throws. */
export function getToken(): string | null {
  const store = storage();
  if (store) {
    try {
      const value = store.getItem(TOKEN_STORAGE_KEY);
      if (value && value.trim()) return value;
    } catch {
      // fall through to the in-memory copy
    }
  }
  return memoryToken;
}

/** Stores the bearer token (local storage, else memory when storage refuses). Never throws. */
export function setToken(token: string): void {
  memoryToken = token;
  try {
    const store = storage();
    if (store) {
      store.setItem(TOKEN_STORAGE_KEY, token);
      memoryToken = null;
    }
  } catch {
    // kept in memory only
  }
}

/** Forgets the bearer token everywhere (logout, any 401). Never throws. */
export function clearToken(): void {
  memoryToken = null;
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/** Whether a token is stored: the route guard's test (§2 Routing). */
export function hasToken(): boolean {
  return getToken() !== null;
}
