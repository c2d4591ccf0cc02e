/**
 * Counting a free-text search up to a cap (GET /logs, GET /isr-events). The planner cannot tell a
 * rare search from a common one (its LIKE estimates are guesses), and the wrong plan is slow
 * either way: a trigram bitmap over a text found in a tenth of the table, or a walk of the newest
 * rows for a text found nowhere. So the routes decide from the newest rows: they probe
 * SEARCH_PROBE_ROWS of them; a common text then walks the newest commonSearchWindow(m, cap) rows,
 * where cap + 1 matches are expected, which proves "cap+" without the trigram index; a rare one
 * (or a window that falls short) is counted through the trigram index, at most cap + 1 matches.
 */

/** Newest rows a search probes first to tell a common text from a rare one. */
export const SEARCH_PROBE_ROWS = 2000;
/** A search matching at least this share of the probed rows is treated as common. */
const SEARCH_COMMON_SHARE = 0.02;
/** The most newest rows a common search walks to prove it passes the cap. */
const SEARCH_MAX_WINDOW = 100_000;

/**
 * How many of the newest rows to walk for a search that matched `matches` of the
 * SEARCH_PROBE_ROWS probed: enough to expect cap + 1 matches with a margin of half, at most
 * SEARCH_MAX_WINDOW; null when the search is rare (under 2 % of the probe), which the trigram
 * index answers better.
 */
export function commonSearchWindow(matches: number, cap: number): number | null {
  if (matches < SEARCH_PROBE_ROWS * SEARCH_COMMON_SHARE) return null;
  return Math.min(SEARCH_MAX_WINDOW, Math.ceil((1.5 * (cap + 1) * SEARCH_PROBE_ROWS) / matches));
}
