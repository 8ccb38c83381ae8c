-- The most any price, amount, balance or line subtotal may be (DESIGN §3): 10^15 Rupiah stays exact
-- in a JSON number (a double). The CHECK constraints of migration 20261122_0003 spell the same figure.
CREATE OR REPLACE FUNCTION money_max() RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1000000000000000::bigint $$;
