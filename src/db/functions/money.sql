-- The most any price, amount, balance or line subtotal may be (docs/design.md §3): 10^15 Rupiah stays exact
-- in a JSON number (a double). The CHECK constraints of migration 20261122_0003 spell the same figure.
CREATE OR REPLACE FUNCTION money_max() RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1000000000000000::bigint $$;

-- What p_units of something cost at p_price each (a supplier's price, an item's cost), rounded up
-- to whole Rupiah; NULL when the price is unknown or the figure passes money_max().
CREATE OR REPLACE FUNCTION cost_of(p_price numeric, p_units numeric) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_price * p_units <= money_max() THEN ceil(p_price * p_units)::bigint END
$$;

-- An open denomination's provider units counted in its price's unit (price_unit provider units per
-- unit of price: DANA at Rp 1,010 per 1,000), as its cost is figured.
CREATE OR REPLACE FUNCTION units_of_price(p_meta jsonb, p_provider_units numeric) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_provider_units / greatest(coalesce((p_meta->>'price_unit')::bigint, 1), 1)
$$;
