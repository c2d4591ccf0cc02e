import { useId } from 'react';
import { formatCount } from '../../domain/format';
import { Button } from '../Button';
import styles from './Pager.module.css';

/** Props of {@link Pager}. */
export interface PagerProps {
  /** The current page, 1-based. */
  page: number;
  /** How many pages there are; null while unknown (loading, error), shown as '…'. */
  totalPages: number | null;
  /** How many items all pages hold together; null while unknown (then not shown). */
  total: number | null;
  /** Items per page. */
  pageSize: number;
  /** The page-size choices, e.g. USERS_PAGE_SIZES (20, 50, 100, 200, 500; §9); omit when the size is chosen elsewhere (Logs' Rows). */
  pageSizes?: readonly number[];
  /** Go to this page (already within 1…totalPages). */
  onPageChange: (page: number) => void;
  /** A new page size was chosen; the screen resets to page 1 (§4 Lists and paging). */
  onPageSizeChange?: (pageSize: number) => void;
  /** Reload the current page. */
  onRefresh: () => void;
  /** A load is running: Prev, Next and Refresh do nothing meanwhile (aria-disabled). */
  isBusy?: boolean;
  /** How the total reads; defaults to 'Total: 1,234'. */
  formatTotal?: (total: number) => string;
  /** Optional extra text after the total, e.g. '12 active on this page'. */
  summary?: string;
  /** Accessible name of the pager's navigation landmark. */
  label?: string;
}

/**
 * A list pager: 'Page X of Y', the total, an optional summary, a page-size select, Prev, Next
 * (disabled at the bounds) and Refresh. Generic: the Users, Subscriptions and Logs lists can
 * share it. Buttons are disabled with `aria-disabled`, not `disabled`, so a keyboard user who
 * presses Next onto the last page (or while a load runs) keeps focus on the button.
 */
export function Pager({
  page,
  totalPages,
  total,
  pageSize,
  pageSizes,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  isBusy = false,
  formatTotal = (count) => `Total: ${formatCount(count)}`,
  summary,
  label = 'Pagination',
}: PagerProps) {
  const sizeId = useId();
  const lastPage = totalPages == null ? null : Math.max(1, totalPages);
  const isPrevDisabled = isBusy || page <= 1;
  const isNextDisabled = isBusy || lastPage == null || page >= lastPage;
  // Keep the current size selectable even if it is not one of the offered choices.
  const sizes =
    !pageSizes || pageSizes.includes(pageSize)
      ? pageSizes
      : [...pageSizes, pageSize].sort((a, b) => a - b);

  return (
    <nav className={styles.pager} aria-label={label} aria-busy={isBusy || undefined}>
      <p className={styles.status}>
        <span>
          Page {formatCount(page)} of {lastPage == null ? '…' : formatCount(lastPage)}
        </span>
        {total != null ? <span>{formatTotal(total)}</span> : null}
        {summary ? <span>{summary}</span> : null}
      </p>
      <div className={styles.controls}>
        {sizes ? (
          <>
            <label className={styles.sizeLabel} htmlFor={sizeId}>
              Page size
            </label>
            <select
              id={sizeId}
              className={styles.size}
              value={pageSize}
              onChange={(event) => onPageSizeChange?.(Number(event.target.value))}
            >
              {sizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <Button
          size="small"
          aria-disabled={isPrevDisabled}
          onClick={() => {
            if (!isPrevDisabled) onPageChange(page - 1);
          }}
        >
          Prev
        </Button>
        <Button
          size="small"
          aria-disabled={isNextDisabled}
          onClick={() => {
            if (!isNextDisabled) onPageChange(page + 1);
          }}
        >
          Next
        </Button>
        <Button
          size="small"
          aria-disabled={isBusy}
          onClick={() => {
            if (!isBusy) onRefresh();
          }}
        >
          Refresh
        </Button>
      </div>
    </nav>
  );
}
