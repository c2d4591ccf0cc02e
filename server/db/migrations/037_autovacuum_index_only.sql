-- The lists, the dashboard figures and the revenue figures read these tables through index-only
-- scans (the sort indexes that carry the filters' columns, migration 036; the spans' and
-- movements' time indexes), which read a row's table page after all when the visibility map
-- does not mark that page all-visible, and only VACUUM marks it. With PostgreSQL's defaults a
-- table is vacuumed once a fifth of its rows changed or were inserted: at 1M subscriptions,
-- 200,000 webhook changes apart. Meanwhile every page a change touched is read again by every
-- scan that passes it: at 1M, with 45,000 revenue movements and 51,000 spans changed since the
-- last VACUUM, the revenue figures filtered by provider and cadence took 406 ms (p95; 253,059
-- rows fetched from the table by one index-only scan) against 205 ms after a VACUUM
-- (bench/README.md, "Autovacuum"). These tables are vacuumed once 1 % of their rows changed or
-- were inserted, and analysed at 2 %; a VACUUM that finds few dead rows skips the pages still
-- all-visible.
ALTER TABLE subscriptions SET (autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE members SET (autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE revenue_spans SET (autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE revenue_movements SET (autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
