import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';

/**
 * Row count above which rows are virtualised. A sort change re-renders every rendered row, so a
 * whole 50-row page misses the frame budget, while the virtual window (about 20 rows) costs the
 * same whatever the page size (figures in bench/users-table-render.md). A 20-row page costs no
 * more than the window, so it is rendered whole and find-in-page keeps working there.
 */
export const DATA_TABLE_VIRTUALIZE_ABOVE_ROWS = 30;

/** Estimated height of one body row in px (the CSS's --data-table-row-height); rows are measured. */
const ROW_HEIGHT_PX = 40;
/** Rows rendered beyond each edge of the visible window. */
const OVERSCAN_ROWS = 8;

/**
 * The row virtualiser of a table whose scroll container is `scrollerRef`, active when `enabled`.
 * It keeps the focused row (and its neighbours) rendered: Tab and Shift+Tab always reach the next
 * row's controls, and focus is never dropped when the operator scrolls away. Rows carry their
 * index as `data-index`.
 */
export function useRowVirtualizer(
  scrollerRef: RefObject<HTMLDivElement | null>,
  count: number,
  enabled: boolean,
) {
  const [focusedIndex, setFocusedIndex] = useState<number | null>(null);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex == null || focusedIndex >= range.count) return indexes;
      const keep = [focusedIndex - 1, focusedIndex, focusedIndex + 1].filter(
        (i) => i >= 0 && i < range.count,
      );
      return [...new Set([...indexes, ...keep])].sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  // No React Compiler in this build: the virtualiser is read during render, never memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    enabled,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: OVERSCAN_ROWS,
    rangeExtractor,
  });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    function handleFocusIn(event: FocusEvent) {
      const index = (event.target as Element | null)?.closest('tr')?.getAttribute('data-index');
      if (index != null) setFocusedIndex(Number(index));
    }
    scroller.addEventListener('focusin', handleFocusIn);
    return () => scroller.removeEventListener('focusin', handleFocusIn);
  }, [scrollerRef]);

  return virtualizer;
}
