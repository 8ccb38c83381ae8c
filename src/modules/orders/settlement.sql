-- Order and line state changes when upstream requests end (checkout/settlement.sql calls
-- settle_lines once per batch of provider answers; operator actions call settle_order). Row locks
-- follow one order everywhere: orders (ascending id), then items (ascending id), then accounts
-- (ascending id), then account_order_settles (ascending account), so batches, purchases and operator
-- actions never deadlock one another.

-- Every writer of an order locks its row first; several at once in ascending id.
CREATE OR REPLACE FUNCTION lock_orders(p_orders bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM orders WHERE id = ANY (p_orders) ORDER BY id FOR NO KEY UPDATE;
END
$$;

-- Lines whose first upstream request is claimed: `pending` → `processing` (in ascending id, so two
-- claims sharing lines never deadlock). Called by the upstream claim (fulfilment/claims.queries.ts).
CREATE OR REPLACE FUNCTION start_upstream_lines(p_lines bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE order_lines SET status = 'processing'
   WHERE id IN (SELECT id FROM order_lines WHERE id = ANY (p_lines) AND status = 'pending' ORDER BY id FOR NO KEY UPDATE)
$$;

-- Closes open lines, each with what it gives back (p_refunds): an h2h/smm line once all its requests
-- ended (what they give back), a line an operator cancel takes back (its subtotal). `refunded` when
-- that is the whole subtotal (its limited stock goes back, items in ascending id), else `delivered`
-- with the refund capped at the subtotal. One statement for the batch; the conditional update wins
-- once per line. The lines closed with the refund each granted (a line that had already moved on is
-- not among them). The caller holds their orders' rows and credits the refunds (credit_line_refund).
CREATE OR REPLACE FUNCTION close_upstream_lines(p_lines bigint[], p_refunds bigint[])
RETURNS TABLE (line bigint, order_id bigint, granted bigint) LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_returns bigint[] := '{}';
BEGIN
  FOR v IN
    WITH closed AS (
      UPDATE order_lines l
         SET status = CASE WHEN u.refund >= l.subtotal THEN 'refunded' ELSE 'delivered' END,
             refunded_amount = least(l.subtotal, u.refund),
             delivered_at = CASE WHEN u.refund >= l.subtotal THEN NULL ELSE clock_timestamp() END
        FROM unnest(p_lines, p_refunds) u(line, refund)
       WHERE l.id = u.line AND l.refunded_amount = 0 AND l.status IN ('pending', 'processing', 'cancel_requested')
      RETURNING l.id, l.order_id, l.refunded_amount, l.stock_taken, l.item_id, l.status)
    SELECT * FROM closed ORDER BY item_id, id
  LOOP
    IF v.status = 'refunded' AND v.stock_taken > 0 THEN PERFORM return_item_stock(v.item_id, v.stock_taken); END IF;
    line := v.id;
    order_id := v.order_id;
    granted := v.refunded_amount;
    RETURN NEXT;
  END LOOP;
END
$$;

-- One line closed as close_upstream_lines closes a batch: the refund granted, or NULL when the line
-- had already moved on.
CREATE OR REPLACE FUNCTION close_upstream_line(p_line bigint, p_refund bigint) RETURNS bigint LANGUAGE sql AS $$
  SELECT c.granted FROM close_upstream_lines(ARRAY[p_line], ARRAY[p_refund]) c
$$;

-- A line's refund credited to its order's account: the one spelling of a refund's ledger entry and
-- its text, for settlement (settle_lines), the operator cancel (creditRefunds) and a complaint's
-- refund alike. Once per line and reference: a line closes once, and the ledger's unique (line,
-- refund) index backs it; a complaint's refund carries its own reference. Nothing for 0.
CREATE OR REPLACE FUNCTION credit_line_refund(p_account bigint, p_order bigint, p_invoice text, p_line bigint, p_amount bigint,
                                              p_reason text, p_reference text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_amount > 0 AND NOT EXISTS (SELECT 1 FROM post_ledger_entry(p_account, 'credit', 'refund', p_amount, 'Refund ' || p_invoice || ': ' || p_reason,
                                                                  p_invoice, p_reference, p_order, p_line, NULL)) THEN
    PERFORM raise_app('ACCOUNT_NOT_FOUND');
  END IF;
END
$$;

-- Paid orders (their rows locked) whose lines are all closed: `canceled` when every line was
-- refunded, else `completed`, each with its event in the outbox (in ascending order id). The orders
-- closed, with their accounts and new statuses; the others stay as they are. The accounts' order
-- list versions are the caller's (count_order_settles).
CREATE OR REPLACE FUNCTION close_orders(p_orders bigint[])
RETURNS TABLE (order_id bigint, account_id bigint, status text) LANGUAGE sql AS $$
  WITH closing AS (
    SELECT o.id, o.account_id, CASE WHEN bool_or(l.status <> 'refunded') THEN 'completed' ELSE 'canceled' END AS status
      FROM orders o JOIN order_lines l ON l.order_id = o.id
     WHERE o.id = ANY (p_orders) AND o.status = 'paid'
     GROUP BY o.id, o.account_id
    HAVING NOT bool_or(l.status IN ('pending', 'processing', 'cancel_requested'))),
  closed AS (
    UPDATE orders o SET status = c.status, finished_at = clock_timestamp(), updated_at = clock_timestamp()
      FROM closing c WHERE o.id = c.id AND o.status = 'paid'
    RETURNING o.id, o.account_id, o.status),
  -- The relay counts an order.completed on the leaderboard (leaderboard.sql).
  announced AS (
    INSERT INTO outbox_events (account_id, events, order_id, order_line_id, leaderboard_counts)
    SELECT c.account_id, CASE WHEN c.status = 'completed' THEN ARRAY['order.completed'] ELSE ARRAY['order.canceled'] END, c.id, NULL,
           c.status = 'completed'
      FROM closed c ORDER BY c.id)
  SELECT c.id, c.account_id, c.status FROM closed c
$$;

-- The accounts' order lists changed (an order closed, a line refunded), once per element: their
-- versions move (orders.queries.ts), in ascending account id. Kept off the account row, which every
-- purchase debits: a batch of settlements waited for those purchases and held up the next ones.
CREATE OR REPLACE FUNCTION count_order_settles(p_accounts bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO account_order_settles AS s (account_id, settles)
  SELECT u.account_id, count(*) FROM unnest(p_accounts) u(account_id) GROUP BY u.account_id ORDER BY u.account_id
  ON CONFLICT (account_id) DO UPDATE SET settles = s.settles + excluded.settles
$$;

-- One order closed as close_orders closes many: the new status, or NULL when it stays as it is.
CREATE OR REPLACE FUNCTION close_order(p_order bigint) RETURNS text LANGUAGE sql AS $$
  SELECT c.status FROM close_orders(ARRAY[p_order]) c
$$;

-- One order (its row locked) closed if its lines are: the order's status after it. The account's
-- order list changed when it closed (its kept pages are read by order_settles: http/kept-pages.ts).
CREATE OR REPLACE FUNCTION settle_order(p_order bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_status text := close_order(p_order);
BEGIN
  IF v_status IS NULL THEN RETURN (SELECT status FROM orders WHERE id = p_order); END IF;
  PERFORM count_order_settles(ARRAY(SELECT account_id FROM orders WHERE id = p_order));
  RETURN v_status;
END
$$;

-- Lines whose requests all ended, each with what its requests give back and the refund's reason,
-- their orders' rows held by the caller: the lines closed, the limited stock of refunded ones
-- returned, their orders closed when no line is open, then, accounts locked in ascending id, the
-- refunds (exactly once: a line closes once, and the ledger's unique (line, refund) index backs it),
-- then the order lists' versions. Set-wise: a batch of answers costs a few statements, not a few per
-- line; only a refund's account row is locked, never the rows of accounts whose orders merely closed.
CREATE OR REPLACE FUNCTION settle_lines(p_lines bigint[], p_refunds bigint[], p_reasons text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_orders bigint[];
  v_credit_lines bigint[];
  v_credit_amounts bigint[];
  v_closed_accounts bigint[];
BEGIN
  SELECT array_agg(DISTINCT c.order_id), array_agg(c.line ORDER BY c.line) FILTER (WHERE c.granted > 0),
         array_agg(c.granted ORDER BY c.line) FILTER (WHERE c.granted > 0)
    INTO v_orders, v_credit_lines, v_credit_amounts
    FROM close_upstream_lines(p_lines, p_refunds) c;
  IF v_orders IS NULL THEN RETURN; END IF;
  v_closed_accounts := ARRAY(SELECT c.account_id FROM close_orders(v_orders) c);
  PERFORM 1 FROM accounts
   WHERE id IN (SELECT o.account_id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.id = ANY (v_credit_lines))
   ORDER BY id FOR NO KEY UPDATE;
  FOR v IN
    SELECT c.line, c.amount, u.reason, o.id AS order_id, o.invoice, o.account_id
      FROM unnest(v_credit_lines, v_credit_amounts) c(line, amount)
      JOIN unnest(p_lines, p_reasons) u(line, reason) ON u.line = c.line
      JOIN order_lines l ON l.id = c.line JOIN orders o ON o.id = l.order_id
     ORDER BY o.account_id, c.line
  LOOP
    PERFORM credit_line_refund(v.account_id, v.order_id, v.invoice, v.line, v.amount, v.reason);
  END LOOP;
  PERFORM count_order_settles(v_closed_accounts);
END
$$;

-- A complaint's refund of a final line (docs/design.md §14): what is left of its recorded subtotal
-- (never today's price) after what was already refunded, the line `refunded`. Only a delivered or
-- sent line (every upstream request of a delivered line has ended); its stock stays sold (the goods
-- went out). The amount taken back, or NULL when the line is not final or refunded already. The
-- caller holds the order's row (lock_orders) and credits the amount; the account's order list changed.
CREATE OR REPLACE FUNCTION refund_final_line(p_line bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  SELECT l.subtotal - l.refunded_amount AS remaining, o.account_id INTO v
    FROM order_lines l JOIN orders o ON o.id = l.order_id
   WHERE l.id = p_line AND l.status IN ('delivered', 'sent') FOR NO KEY UPDATE OF l;
  IF NOT FOUND THEN RETURN NULL; END IF;
  UPDATE order_lines SET status = 'refunded', refunded_amount = subtotal WHERE id = p_line;
  -- The account's row before its version's, as everywhere: the caller credits the refund next.
  PERFORM 1 FROM accounts WHERE id = v.account_id FOR NO KEY UPDATE;
  PERFORM count_order_settles(ARRAY[v.account_id]);
  RETURN v.remaining;
END
$$;
