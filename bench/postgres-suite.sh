#!/usr/bin/env bash
# The server benchmarks on one PostgreSQL database, one after the other, with every row printed
# and EXPLAIN (ANALYZE, BUFFERS) of each row over its budget: server-metrics, server-customers,
# server-lists, server-stats ("after" only) and server-revenue.
#
#   DATABASE_URL=postgres://… bash bench/postgres-suite.sh              # 1M customers, 10 runs
#   DATABASE_URL=postgres://… bash bench/postgres-suite.sh /tmp/pg.txt  # output to that file
#   DATABASE_URL=postgres://… BENCH_CUSTOMERS=5000 BENCH_ISR_EVENTS=60000 BENCH_RUNS=3 \
#     bash bench/postgres-suite.sh                                      # a quick check of the suite
#
# Environment:
#   DATABASE_URL      required: an empty database (the first bench seeds it: minutes at 1M)
#                     or one these benches seeded with the same BENCH_CUSTOMERS (reused as it is).
#   BENCH_CUSTOMERS   demo customers, default 1000000.
#   BENCH_ISR_EVENTS  ISR events the metrics bench tops the table up to, default 10000000.
#   BENCH_RUNS        timed runs per row, default 10 (after 2 warm-up runs).
#   BENCH_EXPLAIN     1 (default): --explain, the plans of the rows over budget; 0: none; all:
#                     --explain-all, the plans of every row.
#
# The output (also on the terminal) goes to the file given, else to
# bench/results/postgres-<customers>-<UTC time>.txt. Each bench is safe to re-run on the same
# database: the ISR top-up adds only what is missing, the customer history is written once, and
# the stats bench leaves migration 013's indexes in place. The metrics and customer benches run
# first because they add rows (ISR copies, a heavy customer's history and a background of other
# customers' deliveries and logs): the benches after them then measure the same data on the first
# run as on any later one. A bench that fails is reported and the suite goes on; the exit status
# is then 1.
set -uo pipefail

if [ -z "${DATABASE_URL:-}" ]; then
  echo "postgres-suite: set DATABASE_URL=postgres://… (an empty database, or one this suite seeded)" >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export BENCH_CUSTOMERS="${BENCH_CUSTOMERS:-1000000}"
export BENCH_ISR_EVENTS="${BENCH_ISR_EVENTS:-10000000}"
export BENCH_RUNS="${BENCH_RUNS:-10}"
# PGlite-only settings must not send a bench to a folder instead of DATABASE_URL.
unset BENCH_DATA_DIR
case "${BENCH_EXPLAIN:-1}" in
  0) explain=() ;;
  all) explain=(--explain-all) ;;
  *) explain=(--explain) ;;
esac

out="${1:-bench/results/postgres-${BENCH_CUSTOMERS}-$(date -u +%Y%m%dT%H%M%SZ).txt}"
mkdir -p "$(dirname "$out")"
: >"$out"

# The URL without its password, for the log.
shown_url="$(printf '%s' "$DATABASE_URL" | sed -E 's#(://[^:/@]+):[^@]*@#\1:***@#')"

{
  echo "# PostgreSQL bench suite, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet -- server bench 2>/dev/null || echo ' (server/ or bench/ modified)')"
  echo "# Node $(node --version); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# DATABASE_URL=$shown_url"
  echo "# BENCH_CUSTOMERS=$BENCH_CUSTOMERS BENCH_ISR_EVENTS=$BENCH_ISR_EVENTS BENCH_RUNS=$BENCH_RUNS ${explain[*]:-}"
  if command -v psql >/dev/null 2>&1; then
    psql "$DATABASE_URL" -XAtq -c "SELECT '# ' || version()" \
      -c "SELECT '# ' || string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'maintenance_work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'random_page_cost', 'jit')" \
      2>&1 || echo "# (psql could not reach the database)"
  fi
} | tee -a "$out"

failed=()
for bench in server-metrics server-customers server-lists server-stats server-revenue; do
  started=$SECONDS
  {
    echo
    echo "################ $bench ($(date -u +%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg))"
  } | tee -a "$out"
  if ! npx tsx "bench/$bench.ts" "${explain[@]}" 2>&1 | tee -a "$out"; then
    failed+=("$bench")
    echo "!!! $bench failed" | tee -a "$out"
  fi
  echo "################ $bench: $((SECONDS - started)) s" | tee -a "$out"
done

{
  echo
  if [ ${#failed[@]} -eq 0 ]; then
    echo "# all five benches ran; output in $out"
  else
    echo "# failed: ${failed[*]}; output in $out"
  fi
} | tee -a "$out"
[ ${#failed[@]} -eq 0 ]
