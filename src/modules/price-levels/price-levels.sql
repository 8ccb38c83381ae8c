-- Price levels (docs/design.md §5d): accounts' levels and their promotion. Each item's price at each level
-- is the catalog's (catalog/level-prices.sql: stored, kept by triggers, read by the purchase and the listing).

-- The level a new account gets.
CREATE OR REPLACE FUNCTION default_price_level() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT id FROM price_levels WHERE is_default
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
