-- Each item's price at each price level (docs/design.md §5d), stored in item_level_prices and kept here
-- whenever what it is computed from changes (an item's price or product, a product's name or
-- category, a level's rules), so the purchase, the lock and the listing read one row. The catalog owns
-- the table; the price-levels module owns the levels and rules these read, and sets prices by hand
-- through set_item_level_price().

-- A level's price by a rule: round_up(base × (1 + percent/100) + flat, round_to), exact in numeric,
-- within 0 … money_max(). No rule: the base itself.
CREATE OR REPLACE FUNCTION level_price_of(p_base bigint, p_percent numeric, p_flat bigint, p_round_to integer)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_round_to IS NULL THEN p_base
              ELSE least(money_max(), greatest(0, ceil((p_base * (100 + p_percent) / 100 + p_flat) / p_round_to) * p_round_to))::bigint END
$$;

-- How specific a rule is: item > brand with its category > brand > category > all.
CREATE OR REPLACE FUNCTION level_rule_rank(p_scope text, p_category bigint) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_scope WHEN 'item' THEN 4 WHEN 'brand' THEN CASE WHEN p_category IS NULL THEN 2 ELSE 3 END
                      WHEN 'category' THEN 1 ELSE 0 END
$$;

-- The prices of p_items (NULL: every item) at p_level (NULL: every level), each by its most specific
-- rule; a price set by hand (manual) stays. changed_at moves only where the price moved, and the
-- catalog's bell rings when one did (catalog-clock.sql: every process renews its snapshot). Set-based:
-- the items are driven by the array (an index probe each) or read whole, never filtered by an OR a
-- generic plan cannot use; each (item, level) takes its best matching rule in one sort.
-- JIT off: its cost estimate for a whole catalog crosses jit_above_cost, and compiling took 1.5 s of a
-- 1.7 s recomputation of 5,000 items × 4 levels (0.2 s without).
CREATE OR REPLACE FUNCTION refresh_level_prices(p_level bigint, p_items bigint[]) RETURNS integer LANGUAGE plpgsql
SET jit = off AS $$
DECLARE
  v_at timestamptz;
  v_moved integer;
BEGIN
  IF p_items IS NOT NULL AND cardinality(p_items) = 0 THEN RETURN 0; END IF;
  v_at := catalog_change_time();
  WITH target AS (
    SELECT it.id, it.price, p.name AS brand, p.category_id
      FROM items it JOIN products p ON p.id = it.product_id
     WHERE p_items IS NULL
    UNION ALL
    SELECT it.id, it.price, p.name, p.category_id
      FROM unnest(p_items) u(id) JOIN items it ON it.id = u.id JOIN products p ON p.id = it.product_id
     WHERE p_items IS NOT NULL
  ), levels AS (
    SELECT l.id FROM price_levels l WHERE p_level IS NULL OR l.id = p_level
  ), best AS (
    SELECT DISTINCT ON (t.id, r.level_id) t.id AS item_id, r.level_id, r.id AS rule_id, r.percent, r.flat, r.round_to
      FROM price_level_rules r
      JOIN levels l ON l.id = r.level_id
      JOIN target t ON r.scope = 'all'
                    OR (r.scope = 'category' AND r.category_id = t.category_id)
                    OR (r.scope = 'brand' AND lower(r.brand) = lower(t.brand) AND (r.category_id IS NULL OR r.category_id = t.category_id))
                    OR (r.scope = 'item' AND r.item_id = t.id)
     ORDER BY t.id, r.level_id, level_rule_rank(r.scope, r.category_id) DESC, r.id
  ), priced AS (
    INSERT INTO item_level_prices AS lp (item_id, level_id, price, rule_id, changed_at)
    SELECT t.id, l.id, level_price_of(t.price, b.percent, b.flat, b.round_to), b.rule_id, v_at
      FROM target t CROSS JOIN levels l
      LEFT JOIN best b ON b.item_id = t.id AND b.level_id = l.id
    ON CONFLICT (item_id, level_id) DO UPDATE
       SET price = EXCLUDED.price, rule_id = EXCLUDED.rule_id,
           changed_at = CASE WHEN lp.price <> EXCLUDED.price THEN EXCLUDED.changed_at ELSE lp.changed_at END
     WHERE NOT lp.manual AND (lp.price <> EXCLUDED.price OR lp.rule_id IS DISTINCT FROM EXCLUDED.rule_id)
    RETURNING (xmax = 0 OR lp.changed_at = v_at) AS moved
  )
  SELECT count(*) FILTER (WHERE moved) INTO v_moved FROM priced;
  IF v_moved > 0 THEN PERFORM pg_notify('catalog_changed', ''); END IF;
  RETURN v_moved;
END
$$;

-- An item inserted (statement: the transition table `changed`) or its price or product changed (row).
CREATE OR REPLACE FUNCTION level_prices_follow_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM refresh_level_prices(NULL, ARRAY(SELECT c.id FROM changed c));
  ELSE
    PERFORM refresh_level_prices(NULL, ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END
$$;

-- A product renamed (its brand) or moved to another category: its items' level prices.
CREATE OR REPLACE FUNCTION level_prices_follow_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_level_prices(NULL, ARRAY(SELECT i.id FROM items i WHERE i.product_id = NEW.id));
  RETURN NULL;
END
$$;

-- A level's price of an item set by hand (kept until cleared), or cleared (p_price NULL: back to the
-- level's rules), then recomputed.
CREATE OR REPLACE FUNCTION set_item_level_price(p_item bigint, p_level bigint, p_price bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_price IS NULL THEN
    UPDATE item_level_prices SET manual = false WHERE item_id = p_item AND level_id = p_level AND manual;
  ELSE
    UPDATE item_level_prices SET price = p_price, manual = true, rule_id = NULL,
                                 changed_at = CASE WHEN price <> p_price THEN catalog_change_time() ELSE changed_at END
     WHERE item_id = p_item AND level_id = p_level;
    PERFORM pg_notify('catalog_changed', '');
  END IF;
  PERFORM refresh_level_prices(p_level, ARRAY[p_item]);
END
$$;
