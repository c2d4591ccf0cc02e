-- The exact row counts of subscriptions and members (migration 003) split into slots, one per
-- database connection (counter_slot(), migration 025), summed by their reader (rowCountSql of
-- server/db/list.ts), as the log counts are.
--
-- A new subscription's webhook inserts its subscription and its member inside one transaction, so
-- with one counter row per table each such transaction held that row's lock until it committed and
-- the next new subscription waited for it. A slot may go below zero (a row counted in one slot and
-- deleted through another); the sum stays exact.
ALTER TABLE row_counts ADD COLUMN slot SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE row_counts DROP CONSTRAINT row_counts_pkey;
ALTER TABLE row_counts DROP CONSTRAINT row_counts_n_check;
ALTER TABLE row_counts ADD PRIMARY KEY (table_name, slot);

-- Adds `delta` rows of `p_table` to this connection's slot.
CREATE FUNCTION row_counts_add(p_table TEXT, p_delta BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_delta <> 0 THEN
    INSERT INTO row_counts AS c (table_name, slot, n) VALUES (p_table, counter_slot(), p_delta)
      ON CONFLICT (table_name, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION row_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM row_counts_add(TG_TABLE_NAME, (SELECT count(*) FROM new_rows));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION row_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM row_counts_add(TG_TABLE_NAME, -(SELECT count(*) FROM old_rows));
  RETURN NULL;
END
$$;

-- A truncate leaves the table's count as one slot holding 0.
CREATE OR REPLACE FUNCTION row_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  INSERT INTO row_counts (table_name, slot, n) VALUES (TG_TABLE_NAME, 0, 0);
  RETURN NULL;
END
$$;
