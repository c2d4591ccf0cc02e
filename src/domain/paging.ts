/**
 * Paging arithmetic shared by every server-paged list (§2 Users, Subscriptions, Logs; §7
 * {rows, total, totalPages}). Pure and total.
 */

/**
 * Total pages for `total` rows at `pageSize` rows a page: ceil(total / pageSize), at least 1 so an
 * empty list still reads 'Page 1 of 1'. A non-finite or negative total counts as 0 rows; a
 * non-finite or non-positive page size gives 1 page (there is nothing to divide by); a quotient
 * too large to represent is capped at Number.MAX_SAFE_INTEGER.
 */
export function totalPages(total: number, pageSize: number): number {
  if (!Number.isFinite(pageSize) || pageSize <= 0) return 1;
  const rows = Number.isFinite(total) && total > 0 ? total : 0;
  const pages = Math.ceil(rows / pageSize);
  return Number.isFinite(pages) ? Math.max(1, pages) : Number.MAX_SAFE_INTEGER;
}
