-- The leaderboard's rule, in one place (DESIGN §9). An order counts once, when it turns `completed`,
-- in the month of its finished_at in LEADERBOARD_TZ: one transaction and its amount net of refunds.
-- Every refund comes before its order closes (an order closes only when no line is open, and
-- nothing refunds a closed order), so the amount counted is already net and points never go down.
-- A canceled order never counts. A refund of a completed order, if one is ever added, must call
-- leaderboard_add(account, finished_at, 0, -refund): the month the amount was counted in.

-- LEADERBOARD_TZ, which the service records in app_meta at start (recordLeaderboardZone).
CREATE OR REPLACE FUNCTION leaderboard_zone() RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_zone text;
BEGIN
  SELECT value INTO v_zone FROM app_meta WHERE key = 'leaderboard_tz';
  IF v_zone IS NULL THEN RAISE EXCEPTION 'leaderboard time zone not recorded: the service records LEADERBOARD_TZ at start'; END IF;
  RETURN v_zone;
END
$$;

-- The month an instant belongs to: the first day of its calendar month in LEADERBOARD_TZ.
CREATE OR REPLACE FUNCTION leaderboard_month(p_at timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT date_trunc('month', p_at AT TIME ZONE leaderboard_zone())::date
$$;

-- Adds to an account's month. The row is the account's own: its purchases already hold the account row.
CREATE OR REPLACE FUNCTION leaderboard_add(p_account bigint, p_at timestamptz, p_transactions integer, p_amount bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO leaderboard_months AS m (account_id, month, transactions, amount)
  VALUES (p_account, leaderboard_month(p_at), p_transactions, p_amount)
  ON CONFLICT (account_id, month) DO UPDATE
    SET transactions = m.transactions + EXCLUDED.transactions, amount = m.amount + EXCLUDED.amount;
END
$$;

-- Called in the transaction that turns a paid order `completed` (settleOrder), after its refunds; purchase()
-- adds an order born completed itself, with the same values.
CREATE OR REPLACE FUNCTION leaderboard_count_order(p_order bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_order orders%ROWTYPE;
BEGIN
  SELECT * INTO v_order FROM orders WHERE id = p_order AND status = 'completed';
  IF NOT FOUND THEN RAISE EXCEPTION 'order % is not completed', p_order; END IF;
  PERFORM leaderboard_add(v_order.account_id, v_order.finished_at, 1,
    greatest(v_order.amount - coalesce((SELECT sum(refunded_amount) FROM order_lines WHERE order_id = p_order), 0), 0)::bigint);
END
$$;
