-- GET /logs: newest first, filtered by level, searched in the message and the context.
-- The search text is one expression, msg plus the context's JSON text; a trigram GIN index on it
-- serves the case-insensitive substring search (ILIKE '%q%'). Level pages are read off a
-- (level, ts, id) index; the unfiltered page off (ts, id). Both carry the id tie-breaker the
-- route orders by, so a page is an index range scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX logs_search_trgm_idx ON logs USING gin ((msg || ' ' || coalesce(context::text, '')) gin_trgm_ops);
CREATE INDEX logs_level_ts_idx ON logs (level, ts DESC, id DESC);
CREATE INDEX logs_ts_id_idx ON logs (ts DESC, id DESC);
DROP INDEX IF EXISTS logs_ts_idx;

-- Exact row counts per level, kept by statement-level triggers, so the Logs screen's total for
-- "all levels" or one level is a lookup instead of a count over up to LOG_MAX_ROWS rows.
CREATE TABLE logs_level_counts (
  level  TEXT PRIMARY KEY,
  n      BIGINT NOT NULL
);
INSERT INTO logs_level_counts (level, n) SELECT level, count(*) FROM logs GROUP BY level;

CREATE FUNCTION logs_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO logs_level_counts (level, n)
  SELECT level, count(*) FROM new_rows GROUP BY level
  ON CONFLICT (level) DO UPDATE SET n = logs_level_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION logs_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE logs_level_counts c SET n = c.n - d.n
    FROM (SELECT level, count(*) AS n FROM old_rows GROUP BY level) d
   WHERE c.level = d.level;
  RETURN NULL;
END $$;

CREATE FUNCTION logs_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE logs_level_counts c SET n = c.n - d.n
    FROM (SELECT level, count(*) AS n FROM old_rows GROUP BY level) d
   WHERE c.level = d.level;
  INSERT INTO logs_level_counts (level, n)
  SELECT level, count(*) FROM new_rows GROUP BY level
  ON CONFLICT (level) DO UPDATE SET n = logs_level_counts.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION logs_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM logs_level_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER logs_counts_insert AFTER INSERT ON logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION logs_counts_after_insert();
CREATE TRIGGER logs_counts_delete AFTER DELETE ON logs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION logs_counts_after_delete();
CREATE TRIGGER logs_counts_update AFTER UPDATE ON logs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION logs_counts_after_update();
CREATE TRIGGER logs_counts_truncate AFTER TRUNCATE ON logs
  FOR EACH STATEMENT EXECUTE FUNCTION logs_counts_after_truncate();
