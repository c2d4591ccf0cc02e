/**
 * Media queries as React state, for the choices a screen makes at its edge (CONVENTIONS.md:
 * responsiveness only at the screen edge), e.g. the layout's desktop/mobile shell (§2 Layout).
 */
import { useCallback, useSyncExternalStore } from 'react';

/** The layout's phone breakpoint: at most 767 CSS px wide is 'mobile' (§2 Layout overlay menu). */
export const MOBILE_MEDIA_QUERY = '(max-width: 767px)';

function matches(query: string): boolean {
  return typeof globalThis.matchMedia === 'function' ? globalThis.matchMedia(query).matches : false;
}

/** Hook: whether `query` matches now; re-renders when that changes. False where matchMedia is missing. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof globalThis.matchMedia !== 'function') return () => undefined;
      const list = globalThis.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => matches(query),
    () => false,
  );
}
