-- The per-level log counts of migration 004 split into slots, one per database connection (its
-- backend pid modulo 64), which every reader sums (GET /logs, the maintenance diagnostics).
--
-- Access actions and webhook deliveries write their log row inside the transaction that makes the
-- change (server/logRows.ts). With one counter row per level, each of those transactions held that
-- row's lock from its log row to its commit, and the next one waited for it: under 50 webhooks a
-- second they queued one behind the other (bench/README.md, "Load test"). Transactions on
-- different connections now update different rows. A slot may go below zero (a row counted in
-- one slot and deleted through another); the sum over the slots stays exact.
ALTER TABLE logs_level_counts ADD COLUMN slot SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE logs_level_counts DROP CONSTRAINT logs_level_counts_pkey;
ALTER TABLE logs_level_counts ADD PRIMARY KEY (level, slot);

-- The counter slot of this database connection, for every counter split this way.
CREATE FUNCTION counter_slot() RETURNS SMALLINT LANGUAGE sql STABLE AS $$
  SELECT (pg_backend_pid() % 64)::smallint
$$;

-- Adds `delta` rows per level to this connection's slots, levels in order.
CREATE FUNCTION logs_counts_add(p_levels TEXT[], p_deltas BIGINT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO logs_level_counts AS c (level, slot, n)
    SELECT x.level, counter_slot(), sum(x.delta)
      FROM unnest(p_levels, p_deltas) AS x(level, delta)
     GROUP BY x.level HAVING sum(x.delta) <> 0 ORDER BY x.level
    ON CONFLICT (level, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

CREATE OR REPLACE FUNCTION logs_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM logs_counts_add(array_agg(level), array_agg(n)) FROM (SELECT level, count(*) AS n FROM new_rows GROUP BY level) d;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION logs_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM logs_counts_add(array_agg(level), array_agg(-n)) FROM (SELECT level, count(*) AS n FROM old_rows GROUP BY level) d;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION logs_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM logs_counts_add(array_agg(level), array_agg(n))
     FROM (SELECT level, sum(d)::bigint AS n
             FROM (SELECT level, 1::bigint AS d FROM new_rows UNION ALL SELECT level, -1 FROM old_rows) u
            GROUP BY level) d;
  RETURN NULL;
END $$;
