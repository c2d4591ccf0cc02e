-- The customer's email on every member and subscription row, for the email filter of the Users
-- and Subscriptions lists (a fragment, matched anywhere in the address). The filter matched the
-- customers' trigram index, then probed each match's member or subscriptions: 12,500 matches of
-- a common first name at 1M customers took 40–60 ms, most of it in the probes
-- (bench/README.md, "PostgreSQL at 1M customers"). With the email on the list's own row, the
-- list's own trigram index answers it.
--
-- The copy is kept by triggers, so no writer has to know of it:
-- - a row that is inserted, or whose customer_id or email is set, takes its customer's email
--   (BEFORE: whatever a writer puts there is replaced);
-- - a customer whose email changes passes it on to its rows.
-- The seed's bulk load runs with triggers off and writes the copies itself; NOT NULL catches a
-- writer that cannot.
ALTER TABLE members ADD COLUMN email TEXT;
ALTER TABLE subscriptions ADD COLUMN email TEXT;

-- No trigger watches these columns, so the copy fires none of the roll-ups.
UPDATE members m SET email = c.email FROM customers c WHERE c.id = m.customer_id;
UPDATE subscriptions s SET email = c.email FROM customers c WHERE c.id = s.customer_id;
ALTER TABLE members ALTER COLUMN email SET NOT NULL;
ALTER TABLE subscriptions ALTER COLUMN email SET NOT NULL;

CREATE FUNCTION list_email_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.email := (SELECT email FROM customers WHERE id = NEW.customer_id);
  RETURN NEW;
END $$;

CREATE TRIGGER members_email_fill BEFORE INSERT OR UPDATE OF customer_id, email ON members
  FOR EACH ROW EXECUTE FUNCTION list_email_fill();
CREATE TRIGGER subscriptions_email_fill BEFORE INSERT OR UPDATE OF customer_id, email ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION list_email_fill();

CREATE FUNCTION customers_email_pass_on() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET email = NEW.email WHERE customer_id = NEW.id;
  UPDATE subscriptions SET email = NEW.email WHERE customer_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER customers_email_pass_on AFTER UPDATE OF email ON customers
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION customers_email_pass_on();

CREATE INDEX members_email_trgm_idx ON members USING gin (email gin_trgm_ops);
CREATE INDEX subscriptions_email_trgm_idx ON subscriptions USING gin (email gin_trgm_ops);
ANALYZE members;
ANALYZE subscriptions;
