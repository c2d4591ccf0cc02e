/**
 * On/off settings kept in local storage as '1' / '0' (§3 "Stored locally", §4 Sound alerts: the
 * sound setting under mg_sound_enabled; the layout's sidebar state under mg_sidebar_collapsed).
 * Storage may be missing or throw (private mode, quota, Node tests): reads then give the default
 * and writes are kept for this page's lifetime only.
 */
import { useCallback, useSyncExternalStore } from 'react';

/** Values written when storage refuses them, so the switch still works for this page. */
const memory = new Map<string, boolean>();
/** Components showing a flag, told when any flag changes in this tab. */
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The flag stored under `key`: '1' → true, '0' → false; anything else (missing, garbage) gives
 * `defaultValue`. Never throws.
 */
export function readStoredFlag(key: string, defaultValue: boolean): boolean {
  try {
    const value = storage()?.getItem(key);
    if (value === '1') return true;
    if (value === '0') return false;
  } catch {
    // fall through to the in-memory copy
  }
  return memory.get(key) ?? defaultValue;
}

/** Stores the flag under `key` as '1' or '0' and tells every component showing it. Never throws. */
export function writeStoredFlag(key: string, value: boolean): void {
  try {
    const store = storage();
    if (!store) throw new Error('no localStorage');
    store.setItem(key, value ? '1' : '0');
    memory.delete(key);
  } catch {
    memory.set(key, value); // kept for this page only
  }
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed a setting: follow it.
  const onStorage = () => listener();
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/**
 * Hook: a boolean setting persisted under `key` ('1'/'0'), shared live by every component that
 * shows it (and by other tabs). Returns the value and its setter.
 */
export function useStoredFlag(
  key: string,
  defaultValue: boolean,
): [boolean, (next: boolean) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => readStoredFlag(key, defaultValue),
    () => defaultValue,
  );
  const setValue = useCallback((next: boolean) => writeStoredFlag(key, next), [key]);
  return [value, setValue];
}
