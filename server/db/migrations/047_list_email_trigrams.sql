-- The email filters of the Users and Subscriptions lists match a fragment anywhere in the address
-- (LIKE '%…%') through a trigram index (migration 034). pg_trgm splits text into words at every
-- character that is not a letter or digit, so a fragment across the address's punctuation ('a.m',
-- 'k+8', '.la') had no trigram inside a word, only the padded ones of a word's start or end, which
-- many rows share: the filter tested every row (140–420 ms at 1M subscriptions, idle to under the
-- load test). A second trigram index holds each address with that punctuation turned into digits,
-- one for one, so the address is one word and every three characters of it make a trigram.
--
-- The lists read it only for such fragments (server/db/list.ts, emailContains): computing the
-- text again for every candidate costs more than the first index's recheck. A digit may stand for
-- a real digit of another address, so an exact test (strpos, which no index reads) rechecks each
-- candidate. The characters and digits are those of emailTrigramText in server/db/list.ts.
CREATE FUNCTION email_trigram_text(email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT translate(email, '.+@_-', '01234') $$;

CREATE INDEX members_email_joined_trgm_idx ON members
  USING gin (email_trigram_text(email) gin_trgm_ops);
CREATE INDEX subscriptions_email_joined_trgm_idx ON subscriptions
  USING gin (email_trigram_text(email) gin_trgm_ops);
-- The planner's estimate of the filter follows the statistics of the indexed expression. From the
-- default 100-entry histogram, a fragment in under 1 % of the rows ('k+8': 1,753 of 1M) is
-- estimated at 0.01 % or at 1 % (0 or 1 entry matching), and at 1 % the planner intersects the
-- index with the provider's or the cadence's (400,000–750,000 entries: 'k+8' among ClickBank
-- subscriptions 64 ms instead of 9). 300 entries (a sample of 90,000 rows) make ANALYZE of 1M
-- subscriptions take 2.4 s instead of 0.6 s. The seed keeps the targets when it rebuilds indexes.
ALTER INDEX members_email_joined_trgm_idx ALTER COLUMN 1 SET STATISTICS 300;
ALTER INDEX subscriptions_email_joined_trgm_idx ALTER COLUMN 1 SET STATISTICS 300;
ANALYZE members;
ANALYZE subscriptions;
