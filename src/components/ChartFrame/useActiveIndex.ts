import { useCallback, useState, type KeyboardEvent } from 'react';

/** How the active datum was chosen: keyboard focus or the pointer. */
export type ActiveSource = 'keyboard' | 'pointer';

/** The active datum of a chart and the handlers that move it. */
export interface ActiveIndex {
  /** Index into the chart's data, or null when nothing is active. */
  index: number | null;
  source: ActiveSource | null;
  /** Pointer: make `index` active (null clears). */
  setPointerIndex: (index: number | null) => void;
  /** Keyboard: ←/→ (and ↑/↓) move by one, PageUp/PageDown by 7, Home/End to the ends, Escape clears. */
  handleKeyDown: (event: KeyboardEvent) => void;
  /** Focus activates the first datum (or keeps the current one). */
  handleFocus: () => void;
  /** Blur clears a keyboard-chosen datum. */
  handleBlur: () => void;
}

/**
 * The active-datum state shared by every chart, so the tooltip works from the keyboard exactly
 * as from the pointer. `count` is the number of data points.
 */
export function useActiveIndex(count: number): ActiveIndex {
  const [state, setState] = useState<{ index: number | null; source: ActiveSource | null }>({
    index: null,
    source: null,
  });
  const index = state.index !== null && state.index < count ? state.index : null;

  const setPointerIndex = useCallback(
    (next: number | null) =>
      setState(next === null ? { index: null, source: null } : { index: next, source: 'pointer' }),
    [],
  );

  const handleKeyDown = (event: KeyboardEvent) => {
    if (count === 0) return;
    const current = index ?? 0;
    let next: number | null = current;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowUp':
        next = Math.min(count - 1, current + (index === null ? 0 : 1));
        break;
      case 'ArrowLeft':
      case 'ArrowDown':
        next = Math.max(0, current - (index === null ? 0 : 1));
        break;
      case 'PageUp':
        next = Math.min(count - 1, current + 7);
        break;
      case 'PageDown':
        next = Math.max(0, current - 7);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = count - 1;
        break;
      case 'Escape':
        next = null;
        break;
      default:
        return;
    }
    event.preventDefault();
    setState({ index: next, source: next === null ? null : 'keyboard' });
  };

  const handleFocus = () => {
    if (count > 0 && index === null) setState({ index: 0, source: 'keyboard' });
  };
  const handleBlur = () => {
    if (state.source === 'keyboard') setState({ index: null, source: null });
  };

  return {
    index,
    source: index === null ? null : state.source,
    setPointerIndex,
    handleKeyDown,
    handleFocus,
    handleBlur,
  };
}
