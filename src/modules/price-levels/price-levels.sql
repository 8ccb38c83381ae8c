-- Price levels (docs/design.md §5d): each item's price at each level, stored (item_level_prices) and kept
-- here whenever what it is computed from changes, so the purchase, the lock and the catalog read it.

-- The level a new account gets.
CREATE OR REPLACE FUNCTION default_price_level() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT id FROM price_levels WHERE is_default
$$;

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
-- catalog's bell rings when one did (catalog-clock.sql: every process renews its snapshot).
CREATE OR REPLACE FUNCTION refresh_level_prices(p_level bigint, p_items bigint[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz;
  v_moved integer;
BEGIN
  IF p_items IS NOT NULL AND cardinality(p_items) = 0 THEN RETURN 0; END IF;
  v_at := catalog_change_time();
  WITH priced AS (
    INSERT INTO item_level_prices AS lp (item_id, level_id, price, rule_id, changed_at)
    SELECT it.id, l.id, level_price_of(it.price, r.percent, r.flat, r.round_to), r.id, v_at
      FROM items it
      JOIN products p ON p.id = it.product_id
      CROSS JOIN price_levels l
      LEFT JOIN LATERAL (
        SELECT r.id, r.percent, r.flat, r.round_to
          FROM price_level_rules r
         WHERE r.level_id = l.id
           AND (r.scope = 'all'
                OR (r.scope = 'category' AND r.category_id = p.category_id)
                OR (r.scope = 'brand' AND lower(r.brand) = lower(p.name) AND (r.category_id IS NULL OR r.category_id = p.category_id))
                OR (r.scope = 'item' AND r.item_id = it.id))
         ORDER BY level_rule_rank(r.scope, r.category_id) DESC, r.id
         LIMIT 1) r ON true
     WHERE (p_items IS NULL OR it.id = ANY (p_items)) AND (p_level IS NULL OR l.id = p_level)
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

-- An account moved to another level: stamped (its next catalog delta answers in full, docs/design.md §5d)
-- and announced, so every process forgets its cached authentication and prices its next request anew.
CREATE OR REPLACE FUNCTION account_level_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.price_level_since := catalog_change_time();
  PERFORM pg_notify('account_changed', NEW.id::text);
  RETURN NEW;
END
$$;

-- An item's price at an account's level (the item's own when no level row exists yet).
CREATE OR REPLACE FUNCTION account_item_price(p_account bigint, p_item bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT lp.price FROM accounts a JOIN item_level_prices lp ON lp.level_id = a.price_level_id AND lp.item_id = p_item
                    WHERE a.id = p_account),
                  (SELECT price FROM items WHERE id = p_item))
$$;

-- Promotion (docs/design.md §5d): an account whose month on the leaderboard reaches its level's
-- promote_at moves to the level it names, once per account and level (price_level_promotions), never
-- down by itself. Recorded in the audit log as the `promotion` actor, in the relay's own transaction.
CREATE OR REPLACE FUNCTION promote_by_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_level price_levels%ROWTYPE;
BEGIN
  SELECT l.* INTO v_level FROM accounts a JOIN price_levels l ON l.id = a.price_level_id WHERE a.id = NEW.account_id;
  IF v_level.promote_to IS NULL OR NEW.transactions < v_level.promote_at THEN RETURN NULL; END IF;
  PERFORM set_config('audit.actor', 'promotion', true), set_config('audit.role', 'system', true),
          set_config('audit.action', 'promotePriceLevel', true);
  INSERT INTO price_level_promotions (account_id, from_level_id, to_level_id, month, transactions)
  VALUES (NEW.account_id, v_level.id, v_level.promote_to, NEW.month, NEW.transactions)
  ON CONFLICT (account_id, from_level_id) DO NOTHING;
  IF FOUND THEN
    UPDATE accounts SET price_level_id = v_level.promote_to, updated_at = now()
     WHERE id = NEW.account_id AND price_level_id = v_level.id;
  END IF;
  PERFORM set_config('audit.actor', '', true), set_config('audit.role', '', true), set_config('audit.action', '', true);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER leaderboard_months_promotion AFTER INSERT OR UPDATE OF transactions ON leaderboard_months
  FOR EACH ROW EXECUTE FUNCTION promote_by_transactions();
