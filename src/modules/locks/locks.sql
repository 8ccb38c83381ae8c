-- A stock lock that is no longer usable, as its code: for a purchase that presents it and for a release.
CREATE OR REPLACE FUNCTION refuse_unusable_lock(p_status text, p_expires_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_status = 'used' THEN PERFORM raise_app('LOCK_ALREADY_USED'); END IF;
  IF p_status = 'released' THEN PERFORM raise_app('LOCK_RELEASED'); END IF;
  IF p_status = 'expired' OR p_expires_at <= clock_timestamp() THEN PERFORM raise_app('LOCK_EXPIRED'); END IF;
END
$$;

-- create_lock(): POST /v1/item/lock in one round trip, checks in docs/design.md §6 order. The item is held
-- exclusively first, which also waits out every purchase of it in flight; then the account row,
-- under which the cap is counted. Stock that no purchase could take is not held either
-- (refuse_unsellable). The token comes from the caller's random source. A lock is a promise to buy:
-- the account's active locks, this one included, may be worth at most its balance (checked, not
-- reserved), so an empty account cannot hold an item's stock hostage.
CREATE OR REPLACE FUNCTION create_lock(p_account bigint, p_item bigint, p_qty integer, p_seconds integer,
                                       p_processes text[], p_default_cap integer, p_token text)
RETURNS TABLE (lock_token text, item_id bigint, quantity integer, locked_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_item items%ROWTYPE;
  v_cap integer;
  v_balance bigint;
  v_active bigint;
  v_held numeric;
  v_required numeric;
  v_level bigint;
BEGIN
  PERFORM hold_item_exclusively(p_item);
  SELECT * INTO v_item FROM items i WHERE i.id = p_item;
  IF NOT FOUND OR NOT v_item.active THEN PERFORM raise_app('ITEM_NOT_FOUND'); END IF;
  IF v_item.unlimited_stock THEN PERFORM raise_app('LOCK_NOT_REQUIRED'); END IF;
  SELECT a.price_level_id INTO v_level FROM accounts a WHERE a.id = p_account;
  -- Priced at the account's level (docs/design.md §5d), as its purchase will be.
  v_item := refuse_unsellable(p_item, p_qty, p_qty, p_processes, NULL, v_level);
  SELECT coalesce(a.max_active_locks, p_default_cap), a.balance INTO v_cap, v_balance FROM accounts a WHERE a.id = p_account FOR NO KEY UPDATE;
  -- The account's active locks, counted and valued in one pass: at their items' current prices at the
  -- account's level, in numeric (several locks' worth can pass what a bigint holds).
  SELECT count(*), coalesce(sum(coalesce(lp.price, i.price)::numeric * s.quantity), 0) INTO v_active, v_held
    FROM stock_locks s JOIN items i ON i.id = s.item_id
    LEFT JOIN item_level_prices lp ON lp.item_id = s.item_id AND lp.level_id = v_level
   WHERE s.account_id = p_account AND s.status = 'active' AND s.expires_at > clock_timestamp();
  IF v_active >= v_cap THEN PERFORM raise_app('MAX_ACTIVE_LOCKS_REACHED'); END IF;
  IF item_stock(p_item) - item_reserved(p_item) < p_qty THEN PERFORM raise_app('INSUFFICIENT_STOCK'); END IF;
  v_required := v_held + v_item.price::numeric * p_qty;
  IF v_required > v_balance THEN
    PERFORM raise_app('BALANCE_IS_INSUFFICIENT', 'balance',
                      'is ' || v_balance || ', less than ' || v_required || ', the value of your active locks with this one: top up or release a lock',
                      jsonb_build_object('balance', v_balance, 'required', v_required));
  END IF;
  RETURN QUERY
    INSERT INTO stock_locks AS s (token, account_id, item_id, quantity, locked_at, expires_at)
    VALUES (p_token, p_account, p_item, p_qty, clock_timestamp(), clock_timestamp() + make_interval(secs => p_seconds))
    RETURNING s.token, s.item_id, s.quantity, s.locked_at, s.expires_at;
END
$fn$;
