-- purchase(): POST /v1/trx in one round trip and one transaction, checks in the contract's order
-- (ref_id → lock → items → stock → balance). Any refusal raises: a refused purchase stores nothing.
-- Rows are locked items (ascending id) → stock lock → account (last, in post_ledger_entry): one
-- global order, so no deadlock. auto and unlimited items take their gate (item_gate_lock_class)
-- shared, then FOR SHARE, so their buyers do not queue on each other; whoever needs the row
-- exclusively takes the gate first (hold_item_exclusively), a fair queue where share locks would
-- starve it. Exclusive row locks are FOR NO KEY UPDATE: FOR UPDATE deadlocks with inserts' FOR KEY SHARE.
-- The checkout module's flow across modules: the steps other modules own are their functions, called here: a line's rules (check_purchase_line,
-- purchase-line.sql, with orders/cart-line.sql's note rules), the stock check and take (stock_shortfall, claim_licenses, take_item_stock:
-- catalog/stock.sql), the upstream requests (plan_dispatches, fulfilment/dispatch-plan.sql).
-- A postpaid bill (docs/design.md §5c) is one line priced by its inquiry (p_inquiry, POST /v1/trx/tagihan):
-- the inquiry is locked, checked and linked to the line here (bills/bills.sql), and its dispatch takes
-- the inquiry's upstream ref, so the payment is the one the provider quoted; POST /v1/trx refuses it.
-- p_max_prices: each line's max_price (docs/design.md §11c; NULL, or a NULL element: no bound), checked
-- against the line's unit price with the item checks, from the values already in hand.
CREATE OR REPLACE FUNCTION purchase(p_account bigint, p_ref text, p_invoice text, p_items bigint[], p_qtys integer[],
                                    p_notes text[], p_lock_token text, p_processes text[], p_inquiry bigint DEFAULT NULL,
                                    p_max_prices bigint[] DEFAULT NULL)
RETURNS TABLE (order_id bigint, created_at timestamptz, amount bigint, refused text)
LANGUAGE plpgsql
-- Generic plans kept on keys (as the webhook pool's KEYED_PLANS): every statement here finds its rows
-- by key, and left to choose, PostgreSQL planned some of them anew at every call.
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $fn$
DECLARE
  n integer := array_length(p_items, 1);
  i integer;
  v_id bigint;
  v_lock stock_locks%ROWTYPE;
  v_shared bigint[] := '{}';
  v_item items%ROWTYPE;
  v_field text;
  v_line record;
  -- Each line as its checks left it (purchase_line, migration 20261206_0360), for the second loop.
  v_lines purchase_line[] := '{}';
  v_this purchase_line;
  v_unit_price bigint;
  v_bill_line integer;
  v_bill_id bigint;
  v_bill_ref text;
  v_open integer := 0;
  v_sum numeric := 0;
  v_total bigint;
  v_short record;
  v_order_id bigint;
  v_created timestamptz;
  v_line_id bigint;
  v_process text;
  v_taken integer;
  v_balance bigint;
  v_level bigint;
BEGIN
  -- The ref_id, without a registry row (one row, one index entry and a key-share lock of the account
  -- fewer per sale): orders' unique (account_id, ref_id) guards purchases, ref_ids now holds top-ups'
  -- (and older purchases'), and a top-up takes the same lock before it looks for an order.
  PERFORM lock_ref_id(p_account, p_ref);
  IF EXISTS (SELECT 1 FROM orders o WHERE o.account_id = p_account AND o.ref_id = p_ref)
     OR EXISTS (SELECT 1 FROM ref_ids r WHERE r.account_id = p_account AND r.ref_id = p_ref) THEN
    RETURN QUERY SELECT NULL::bigint, NULL::timestamptz, NULL::bigint, 'REF_ID_ALREADY_EXIST'::text;
    RETURN;
  END IF;

  IF p_lock_token IS NOT NULL THEN
    SELECT * INTO v_lock FROM stock_locks WHERE token = p_lock_token AND account_id = p_account;
    IF NOT FOUND THEN PERFORM raise_app('LOCK_NOT_FOUND'); END IF;
    PERFORM refuse_unusable_lock(v_lock.status, v_lock.expires_at);
    IF (SELECT count(*) FROM unnest(p_items) u WHERE u = v_lock.item_id) <> 1
       OR NOT EXISTS (SELECT 1 FROM unnest(p_items, p_qtys) u(item, qty) WHERE u.item = v_lock.item_id AND u.qty = v_lock.quantity) THEN
      PERFORM raise_app('LOCK_MISMATCH', 'carts', 'must have exactly one line with item_id ' || v_lock.item_id || ' and quantity '
                        || v_lock.quantity || ', as the lock holds', jsonb_build_object('item_id', v_lock.item_id, 'quantity', v_lock.quantity));
    END IF;
  END IF;

  -- The buyer's price level (docs/design.md §5d): every line is priced at it, read now, so a level
  -- change applies from the next purchase on.
  SELECT a.price_level_id INTO v_level FROM accounts a WHERE a.id = p_account;

  -- Item rows in one global order, so concurrent purchases never deadlock.
  FOR v_id IN SELECT DISTINCT u FROM unnest(p_items) u ORDER BY 1 LOOP
    IF EXISTS (SELECT 1 FROM items WHERE id = v_id AND (order_process = 'auto' OR unlimited_stock)) THEN
      PERFORM pg_advisory_xact_lock_shared(item_gate_lock_class(), item_lock_key(v_id));
      PERFORM 1 FROM items WHERE id = v_id FOR SHARE;
      v_shared := v_shared || v_id;
    ELSE
      PERFORM 1 FROM items WHERE id = v_id FOR NO KEY UPDATE;
    END IF;
  END LOOP;

  -- The presented lock's row comes next: a second purchase with the same lock waits here, then sees it used.
  IF v_lock.id IS NOT NULL THEN
    SELECT * INTO v_lock FROM stock_locks WHERE id = v_lock.id FOR NO KEY UPDATE;
    PERFORM refuse_unusable_lock(v_lock.status, v_lock.expires_at);
  END IF;

  FOR i IN 1 .. n LOOP
    v_field := 'carts.' || (i - 1);
    -- max_order bounds the item over the whole cart: this line and the ones before it.
    v_item := refuse_unsellable(p_items[i], p_qtys[i],
                                CASE WHEN n = 1 THEN p_qtys[i]
                                     ELSE (SELECT sum(u.qty) FROM unnest(p_items[1:i], p_qtys[1:i]) u(item, qty) WHERE u.item = p_items[i]) END,
                                NULL, v_field, v_level);
    v_line := check_purchase_line(v_field, v_item, p_qtys[i], p_notes[i], p_processes, p_account, p_inquiry, v_bill_line IS NOT NULL);
    -- The unit price: the line's cost over its quantity (an open denomination, quantity 1: its price).
    IF p_max_prices[i] IS NOT NULL THEN
      v_unit_price := ceil(v_line.cost / p_qtys[i]);
      IF v_unit_price > p_max_prices[i] THEN
        PERFORM raise_app('PRICE_ABOVE_MAX', v_field || '.max_price',
                          'the price is now ' || v_unit_price || '; send max_price ≥ ' || v_unit_price || ' or leave it out',
                          jsonb_build_object('item_id', p_items[i], 'price', v_unit_price));
      END IF;
    END IF;
    IF v_line.bill_id IS NOT NULL THEN
      v_bill_line := i;
      v_bill_id := v_line.bill_id;
      v_bill_ref := v_line.bill_ref;
    END IF;
    v_lines := array_append(v_lines, ROW(v_line.note, v_line.target, v_line.options, v_line.provider_qty, v_line.cost::bigint)::purchase_line);
    IF v_item.order_process <> 'auto' THEN v_open := v_open + 1; END IF;
    v_sum := v_sum + v_line.cost;
  END LOOP;
  IF v_sum > money_max() THEN PERFORM raise_app('VALIDATION_ERROR', 'carts', 'the order would cost more than ' || money_max()); END IF;
  IF p_inquiry IS NOT NULL AND v_bill_line IS NULL THEN
    PERFORM raise_app('VALIDATION_ERROR', 'carts.0.item_id', 'is not a postpaid item: buy it through POST /v1/trx');
  END IF;
  v_total := v_sum;

  -- Stock, per item over all its lines, computed under the item row locks; refused at the item's first line.
  v_short := stock_shortfall(p_items, p_qtys, v_lock.id, v_shared);
  IF v_short.short_item IS NOT NULL THEN
    i := array_position(p_items, v_short.short_item);
    PERFORM raise_app('OUT_OF_STOCK', 'carts.' || (i - 1) || '.quantity',
                      'only ' || v_short.available || ' available' || CASE WHEN v_short.wanted > p_qtys[i] THEN ' for all lines of this item' ELSE '' END,
                      jsonb_build_object('item_id', v_short.short_item, 'available', v_short.available));
  END IF;

  -- An order of auto lines only is delivered in this same transaction: it is born completed.
  INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount, lock_id, finished_at, price_level_id)
  VALUES (p_account, p_ref, p_invoice, CASE WHEN v_open = 0 THEN 'completed' ELSE 'paid' END, v_total, 0, v_total, v_lock.id,
          CASE WHEN v_open = 0 THEN now() END, v_level)
  RETURNING id, orders.created_at INTO v_order_id, v_created;

  FOR i IN 1 .. n LOOP
    v_this := v_lines[i];
    -- cost: what the line costs the store, the item's cost of one unit of price times the units of
    -- price bought (an open denomination's: its provider units over the price's unit, as check_cart_line prices it);
    -- a bill's: the supplier's price from its inquiry (docs/design.md §11c).
    INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity,
                             unit_price, subtotal, note, status, stock_taken, delivered_at, cost)
    SELECT v_order_id, i - 1, it.id, it.order_process, p.name, it.name, p_qtys[i], v_this.cost / p_qtys[i], v_this.cost, v_this.note,
           CASE WHEN it.order_process = 'auto' THEN 'delivered' ELSE 'pending' END,
           CASE WHEN it.order_process <> 'auto' AND NOT it.unlimited_stock THEN p_qtys[i] ELSE 0 END,
           CASE WHEN it.order_process = 'auto' THEN now() END,
           CASE WHEN i = v_bill_line THEN (SELECT b.provider_price FROM bill_inquiries b WHERE b.id = v_bill_id)
                WHEN it.cost IS NOT NULL
                THEN cost_of(it.cost, coalesce(units_of_price(it.provider_meta, v_this.provider_qty), p_qtys[i])) END
      FROM items it JOIN products p ON p.id = it.product_id WHERE it.id = p_items[i]
    RETURNING id, order_process, stock_taken INTO v_line_id, v_process, v_taken;
    IF i = v_bill_line THEN PERFORM bill_paid_by(v_bill_id, v_line_id); END IF;
    IF v_process = 'auto' THEN
      v_taken := claim_licenses(p_items[i], v_line_id, p_qtys[i]);
      IF v_taken < p_qtys[i] THEN
        -- What this purchase could have had: this line's claim and the item's earlier lines.
        v_taken := v_taken + coalesce((SELECT sum(u.qty) FROM unnest(p_items[1:i - 1], p_qtys[1:i - 1]) u(item, qty) WHERE u.item = p_items[i]), 0);
        PERFORM raise_app('OUT_OF_STOCK', 'carts.' || (i - 1) || '.quantity', 'only ' || v_taken || ' available',
                          jsonb_build_object('item_id', p_items[i], 'available', v_taken));
      END IF;
    ELSIF v_taken > 0 THEN
      PERFORM take_item_stock(p_items[i], v_taken);
    END IF;
    IF provider_kind_of(v_process) IS NOT NULL THEN
      PERFORM plan_dispatches(v_order_id, v_line_id, i, p_invoice, p_items[i], v_process, p_qtys[i], v_this.cost, v_this.target,
                              v_this.options, v_this.provider_qty, CASE WHEN i = v_bill_line THEN v_bill_ref END, v_level);
    END IF;
  END LOOP;

  IF v_lock.id IS NOT NULL THEN
    UPDATE stock_locks SET status = 'used', finished_at = clock_timestamp(), order_id = v_order_id
     WHERE id = v_lock.id AND status = 'active' AND expires_at > clock_timestamp();
    IF NOT FOUND THEN PERFORM raise_app('LOCK_EXPIRED'); END IF;
  END IF;

  -- One outbox row, whatever it announces: the relay makes a delivery per event, and an order born
  -- completed counts on the leaderboard when it is relayed (leaderboard.sql).
  INSERT INTO outbox_events (account_id, events, order_id, leaderboard_counts)
  VALUES (p_account, CASE WHEN v_open = 0 THEN ARRAY['order.paid', 'order.completed'] ELSE ARRAY['order.paid'] END, v_order_id, v_open = 0);

  -- The debit comes after every other write: all of an account's purchases queue on its row, so it is
  -- held the shortest while. Refusals still follow the order of checks: stock came first.
  IF v_total > 0 AND NOT EXISTS (SELECT 1 FROM post_ledger_entry(p_account, 'debit', 'purchase', v_total, 'Purchase ' || p_invoice,
                                                 p_invoice, NULL, v_order_id, NULL, NULL)) THEN
    SELECT balance INTO v_balance FROM accounts WHERE id = p_account;
    PERFORM raise_app('BALANCE_IS_INSUFFICIENT', 'balance', 'is ' || v_balance || ', less than ' || v_total || ', the cost of this order: top up at least '
                      || (v_total - v_balance), jsonb_build_object('balance', v_balance, 'required', v_total));
  END IF;
  -- A free order posts no debit, so nothing else counts it among the account's orders.
  IF v_total = 0 THEN UPDATE accounts SET orders_count = orders_count + 1 WHERE id = p_account; END IF;

  RETURN QUERY SELECT v_order_id, v_created, v_total, NULL::text;
END
$fn$;
