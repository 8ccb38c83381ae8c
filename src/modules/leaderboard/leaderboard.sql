-- The leaderboard's rule, in one place (docs/design.md §9). An order counts once, when its turn to
-- `completed` leaves the outbox, in the month of its finished_at in LEADERBOARD_TZ: one
-- transaction and its amount net of refunds.
-- Every refund comes before its order closes (an order closes only when no line is open, and
-- nothing refunds a closed order), so the amount counted is already net and points never go down.
-- A canceled order never counts. A complaint's refund of a completed order takes the refund off the
-- month the order was counted in (its finished_at): leaderboard_take_back.

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

-- The month an instant belongs to: the first day of its calendar month in the zone (inlined where
-- it is called, so a statement counting many orders reads the zone once, not once per order).
CREATE OR REPLACE FUNCTION leaderboard_month(p_at timestamptz, p_zone text) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', p_at AT TIME ZONE p_zone)::date
$$;

-- The month an instant belongs to in LEADERBOARD_TZ.
CREATE OR REPLACE FUNCTION leaderboard_month(p_at timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT leaderboard_month(p_at, leaderboard_zone())
$$;

-- Counts completed orders on the leaderboard, summed per account and month; rows go in key order,
-- so two relays never wait on each other in opposite orders. An order counts with its amount net of
-- refunds, all made before it closed.
CREATE OR REPLACE FUNCTION leaderboard_count_orders(p_orders bigint[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_counted integer;
  v_zone text;
BEGIN
  IF cardinality(p_orders) = 0 THEN RETURN 0; END IF;
  v_zone := leaderboard_zone();
  INSERT INTO leaderboard_months AS m (account_id, month, transactions, amount)
  SELECT o.account_id, leaderboard_month(o.finished_at, v_zone), count(*),
         sum(greatest(o.amount - coalesce((SELECT sum(l.refunded_amount) FROM order_lines l WHERE l.order_id = o.id), 0), 0))
    FROM orders o
   WHERE o.id = ANY (p_orders) AND o.status = 'completed'
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (account_id, month) DO UPDATE
    SET transactions = m.transactions + EXCLUDED.transactions, amount = m.amount + EXCLUDED.amount;
  GET DIAGNOSTICS v_counted = ROW_COUNT;
  RETURN v_counted;
END
$$;

-- An order counts when the outbox row of its completion is relayed (deleted), in the relay's
-- statement: exactly once, whichever process or version relays it, and never inside the purchase (a
-- sale writes no leaderboard row and holds its account row the shorter). The purchase and
-- settleOrder flag the row (leaderboard_counts).
CREATE OR REPLACE FUNCTION leaderboard_count_relayed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM leaderboard_count_orders(ARRAY(SELECT order_id FROM relayed WHERE leaderboard_counts));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER outbox_events_leaderboard AFTER DELETE ON outbox_events
  REFERENCING OLD TABLE AS relayed FOR EACH STATEMENT EXECUTE FUNCTION leaderboard_count_relayed();

-- A refund after the order completed (a complaint's, docs/design.md §14) off the order's month. If
-- its completion is still in the outbox, the relay counts it net of this refund: locking that row
-- makes a relay under way finish first (the row is then gone, and counted: take it off) or pass it by.
CREATE OR REPLACE FUNCTION leaderboard_take_back(p_order bigint, p_amount bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  SELECT account_id, finished_at INTO v FROM orders WHERE id = p_order AND status = 'completed';
  IF NOT FOUND OR p_amount <= 0 THEN RETURN; END IF;
  PERFORM 1 FROM outbox_events WHERE order_id = p_order AND leaderboard_counts FOR UPDATE;
  IF FOUND THEN RETURN; END IF;
  UPDATE leaderboard_months SET amount = greatest(amount - p_amount, 0)
   WHERE account_id = v.account_id AND month = leaderboard_month(v.finished_at);
END
$$;
