-- Order and line state changes when upstream requests end (checkout/settlement.sql calls
-- settle_lines once per batch of provider answers; operator actions call settle_order). Row locks
-- follow one order everywhere: orders (ascending id), then items (ascending id), then accounts
-- (ascending id), so batches, purchases and operator actions never deadlock one another.

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

-- Closes an open line with `p_refund`, what it gives back: an h2h/smm line once all its requests
-- ended (what they give back), a line an operator cancel takes back (its subtotal). `refunded` when
-- that is the whole subtotal (its limited stock goes back), else `delivered` with the refund capped
-- at the subtotal. The conditional update wins once; the refund granted, or NULL when the line had
-- already moved on. The caller credits it (credit_line_refund) after its item rows.
CREATE OR REPLACE FUNCTION close_upstream_line(p_line bigint, p_refund bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  UPDATE order_lines
     SET status = CASE WHEN p_refund >= subtotal THEN 'refunded' ELSE 'delivered' END,
         refunded_amount = least(subtotal, p_refund),
         delivered_at = CASE WHEN p_refund >= subtotal THEN NULL ELSE clock_timestamp() END
   WHERE id = p_line AND refunded_amount = 0 AND status IN ('pending', 'processing', 'cancel_requested')
  RETURNING refunded_amount, stock_taken, item_id, status INTO v;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF v.status = 'refunded' THEN PERFORM return_item_stock(v.item_id, v.stock_taken); END IF;
  RETURN v.refunded_amount;
END
$$;

-- A line's refund credited to its order's account: the one spelling of a refund's ledger entry and
-- its text, for settlement (settle_lines) and the operator cancel (creditRefunds) alike. Once per
-- line: a line closes once, and the ledger's unique (line, refund) index backs it. Nothing for 0.
CREATE OR REPLACE FUNCTION credit_line_refund(p_account bigint, p_order bigint, p_invoice text, p_line bigint, p_amount bigint,
                                              p_reason text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_amount > 0 AND NOT EXISTS (SELECT 1 FROM post_ledger_entry(p_account, 'credit', 'refund', p_amount, 'Refund ' || p_invoice || ': ' || p_reason,
                                                                  p_invoice, NULL, p_order, p_line, NULL)) THEN
    PERFORM raise_app('ACCOUNT_NOT_FOUND');
  END IF;
END
$$;

-- A paid order (its row locked) whose lines are all closed: `canceled` when every line was
-- refunded, else `completed`, with its event in the outbox. The new status, or NULL when it stays
-- as it is. The account's order_settles is the caller's: it holds the account row last.
CREATE OR REPLACE FUNCTION close_order(p_order bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_account bigint;
  v_status text;
BEGIN
  SELECT account_id INTO v_account FROM orders WHERE id = p_order AND status = 'paid';
  IF NOT FOUND OR EXISTS (SELECT 1 FROM order_lines WHERE order_id = p_order AND status IN ('pending', 'processing', 'cancel_requested')) THEN
    RETURN NULL;
  END IF;
  v_status := CASE WHEN EXISTS (SELECT 1 FROM order_lines WHERE order_id = p_order AND status <> 'refunded') THEN 'completed' ELSE 'canceled' END;
  UPDATE orders SET status = v_status, finished_at = clock_timestamp(), updated_at = clock_timestamp() WHERE id = p_order AND status = 'paid';
  -- The relay counts an order.completed on the leaderboard (leaderboard.sql).
  INSERT INTO outbox_events (account_id, events, order_id, order_line_id, leaderboard_counts)
  VALUES (v_account, CASE WHEN v_status = 'completed' THEN ARRAY['order.completed'] ELSE ARRAY['order.canceled'] END, p_order, NULL,
          v_status = 'completed');
  RETURN v_status;
END
$$;

-- One order (its row locked) closed if its lines are: the order's status after it. The account's
-- order list changed when it closed (its kept pages are read by order_settles: http/kept-pages.ts).
CREATE OR REPLACE FUNCTION settle_order(p_order bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_status text := close_order(p_order);
BEGIN
  IF v_status IS NULL THEN RETURN (SELECT status FROM orders WHERE id = p_order); END IF;
  UPDATE accounts SET order_settles = order_settles + 1 WHERE id = (SELECT account_id FROM orders WHERE id = p_order);
  RETURN v_status;
END
$$;

-- Lines whose requests all ended, each with what its requests give back and the refund's reason:
-- the lines closed, the limited stock of refunded ones returned, their orders closed when no line
-- is open, then, account by account, the refunds (exactly once: a line closes once, and the
-- ledger's unique (line, refund) index backs it) and the order list's version.
CREATE OR REPLACE FUNCTION settle_lines(p_lines bigint[], p_refunds bigint[], p_reasons text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_granted bigint;
  v_credit_lines bigint[] := '{}';
  v_credit_amounts bigint[] := '{}';
  v_credit_reasons text[] := '{}';
  v_closed bigint[] := '{}';
  v_account bigint;
BEGIN
  IF coalesce(array_length(p_lines, 1), 0) = 0 THEN RETURN; END IF;
  PERFORM lock_orders(ARRAY(SELECT DISTINCT order_id FROM order_lines WHERE id = ANY (p_lines)));
  -- In their items' order: a refunded line's stock return locks the item row, ascending as a purchase does.
  FOR v IN
    SELECT l.id, u.refund, u.reason FROM unnest(p_lines, p_refunds, p_reasons) u(line, refund, reason)
      JOIN order_lines l ON l.id = u.line ORDER BY l.item_id, l.id
  LOOP
    v_granted := close_upstream_line(v.id, v.refund);
    IF v_granted > 0 THEN
      v_credit_lines := v_credit_lines || v.id;
      v_credit_amounts := v_credit_amounts || v_granted;
      v_credit_reasons := v_credit_reasons || v.reason;
    END IF;
  END LOOP;
  FOR v IN SELECT DISTINCT order_id FROM order_lines WHERE id = ANY (p_lines) ORDER BY 1 LOOP
    IF close_order(v.order_id) IS NOT NULL THEN v_closed := v_closed || v.order_id; END IF;
  END LOOP;
  FOR v_account IN
    SELECT DISTINCT o.account_id FROM orders o
     WHERE o.id = ANY (v_closed) OR o.id IN (SELECT order_id FROM order_lines WHERE id = ANY (v_credit_lines)) ORDER BY 1
  LOOP
    FOR v IN
      SELECT c.line, c.amount, c.reason, o.id AS order_id, o.invoice
        FROM unnest(v_credit_lines, v_credit_amounts, v_credit_reasons) c(line, amount, reason)
        JOIN order_lines l ON l.id = c.line JOIN orders o ON o.id = l.order_id
       WHERE o.account_id = v_account ORDER BY c.line
    LOOP
      PERFORM credit_line_refund(v_account, v.order_id, v.invoice, v.line, v.amount, v.reason);
    END LOOP;
    UPDATE accounts SET order_settles = order_settles + (SELECT count(*) FROM orders WHERE id = ANY (v_closed) AND account_id = v_account)
     WHERE id = v_account AND EXISTS (SELECT 1 FROM orders WHERE id = ANY (v_closed) AND account_id = v_account);
  END LOOP;
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
  UPDATE accounts SET order_settles = order_settles + 1 WHERE id = v.account_id;
  RETURN v.remaining;
END
$$;
