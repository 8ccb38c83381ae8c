-- purchase(): POST /v1/trx in one round trip and one transaction, checks in the contract's order
-- (ref_id → lock → items → stock → balance). Any refusal raises: a refused purchase stores nothing.
-- Rows are locked items (ascending id) → stock lock → account (last, in post_ledger_entry): one
-- global order, so no deadlock. auto and unlimited items take their gate (item_gate_lock_class)
-- shared, then FOR SHARE, so their buyers do not queue on each other; whoever needs the row
-- exclusively takes the gate first (hold_item_exclusively), a fair queue where share locks would
-- starve it. Exclusive row locks are FOR NO KEY UPDATE: FOR UPDATE deadlocks with inserts' FOR KEY SHARE.
-- h2h and smm lines get one dispatch row per provider request, its upstream ref derived from the
-- invoice and line, so sending it again is a status check, never a second order.
-- A postpaid bill (DESIGN §5c) is one line priced by its inquiry (p_inquiry, POST /v1/trx/tagihan):
-- the inquiry is locked, checked and linked to the line here (bills/bills.sql), and its dispatch takes
-- the inquiry's upstream ref, so the payment is the one the provider quoted; POST /v1/trx refuses it.
-- Provider requests one h2h line may make: bounds the rows a purchase writes.
CREATE OR REPLACE FUNCTION h2h_requests_max() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 100';

CREATE OR REPLACE FUNCTION purchase(p_account bigint, p_ref text, p_invoice text, p_items bigint[], p_qtys integer[],
                                    p_notes text[], p_lock_token text, p_processes text[], p_inquiry bigint DEFAULT NULL)
RETURNS TABLE (order_id bigint, created_at timestamptz, amount bigint, refused text)
LANGUAGE plpgsql
-- Generic plans kept on keys (as the webhook pool's KEYED_PLANS): every statement here finds its rows
-- by key, and left to choose, PostgreSQL planned some of them anew at every call.
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $fn$
DECLARE
  n integer := array_length(p_items, 1);
  i integer;
  v_lock stock_locks%ROWTYPE;
  v_order_id bigint;
  v_created timestamptz;
  v_line record;
  v_item items%ROWTYPE;
  v_stock record;
  v_total bigint;
  v_sum numeric := 0;
  v_item_total bigint;
  v_notes text[] := '{}';
  v_reserved bigint;
  v_have bigint;
  v_line_id bigint;
  v_claimed integer;
  v_open integer := 0;
  v_field text;
  v_process text;
  v_id bigint;
  v_shared bigint[] := '{}';
  v_targets text[] := '{}';
  v_options jsonb[] := '{}';
  v_units integer[] := '{}';
  v_costs bigint[] := '{}';
  v_kind_ok boolean;
  v_first integer;
  v_balance bigint;
  v_floor_name text;
  v_floor bigint;
  v_top bigint;
  v_more integer;
  v_more_top bigint;
  v_bill bill_inquiries%ROWTYPE;
  v_bill_line integer;
  v_postpaid boolean;
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
    v_item_total := CASE WHEN n = 1 THEN p_qtys[i]
                         ELSE (SELECT sum(u.qty) FROM unnest(p_items[1:i], p_qtys[1:i]) u(item, qty) WHERE u.item = p_items[i]) END;
    v_item := refuse_unsellable(p_items[i], p_qtys[i], v_item_total, NULL, v_field);
    -- A bill costs what its inquiry found, and only POST /v1/trx/tagihan names one.
    v_postpaid := v_item.order_process = 'h2h' AND coalesce((v_item.provider_meta->>'postpaid')::boolean, false);
    IF v_postpaid AND p_inquiry IS NULL THEN
      PERFORM raise_app('VALIDATION_ERROR', v_field || '.item_id', 'a postpaid item is paid through POST /v1/trx/tagihan');
    END IF;
    -- The note is checked trimmed and stored as checked; an open denomination is priced by its size.
    SELECT * INTO v_line FROM check_cart_line(v_field, v_item, p_qtys[i], p_notes[i]);
    IF v_postpaid THEN
      IF v_bill_line IS NOT NULL THEN PERFORM raise_app('VALIDATION_ERROR', 'carts', 'one postpaid bill per transaction'); END IF;
      v_bill := bill_for_payment(p_account, p_inquiry, v_item.id, v_line.target);
      v_bill_line := i;
      v_line.cost := v_bill.amount;
    END IF;
    v_notes := array_append(v_notes, v_line.note);
    IF v_line.cost > money_max() THEN
      PERFORM raise_app('VALIDATION_ERROR', v_field || '.note', 'the line would cost more than ' || money_max());
    END IF;
    IF NOT v_item.order_process = ANY (p_processes) THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', v_field || '.item_id');
    END IF;
    IF v_item.order_process IN ('h2h', 'smm') THEN
      -- A provider of the wrong protocol or an unmapped item is a catalog fault: not sellable now.
      SELECT kind = (CASE WHEN v_item.order_process = 'h2h' THEN 'digiflazz' ELSE 'smm_panel' END) INTO v_kind_ok
        FROM providers WHERE code = v_item.provider;
      IF v_kind_ok IS NOT TRUE OR coalesce(btrim(v_item.provider_code), '') = '' THEN
        PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', v_field || '.item_id');
      END IF;
      IF v_item.order_process = 'h2h' AND v_line.provider_qty IS NULL AND p_qtys[i] > h2h_requests_max() THEN
        PERFORM raise_app('VALIDATION_ERROR', v_field || '.quantity', 'must be at most ' || h2h_requests_max() || ' for an h2h item (one provider request each)');
      END IF;
    END IF;
    v_targets := array_append(v_targets, v_line.target);
    v_options := array_append(v_options, v_line.options);
    -- An open denomination's provider units; NULL: one request per unit of quantity (h2h) or one order (smm).
    v_units := array_append(v_units, v_line.provider_qty);
    v_costs := array_append(v_costs, v_line.cost::bigint);
    IF v_item.order_process <> 'auto' THEN v_open := v_open + 1; END IF;
    v_sum := v_sum + v_line.cost;
  END LOOP;
  IF v_sum > money_max() THEN PERFORM raise_app('VALIDATION_ERROR', 'carts', 'the order would cost more than ' || money_max()); END IF;
  IF p_inquiry IS NOT NULL AND v_bill_line IS NULL THEN
    PERFORM raise_app('VALIDATION_ERROR', 'carts.0.item_id', 'is not a postpaid item: buy it through POST /v1/trx');
  END IF;
  v_total := v_sum;

  -- Stock, per item over all its lines, computed under the item row locks.
  FOR v_stock IN
    SELECT it.id, it.order_process, it.unlimited_stock, it.stock, w.wanted
      FROM (SELECT u.item, sum(u.qty) AS wanted FROM unnest(p_items, p_qtys) u(item, qty) GROUP BY u.item) w
      JOIN items it ON it.id = w.item
     WHERE NOT it.unlimited_stock
  LOOP
    IF v_stock.order_process <> 'auto' AND v_stock.id = ANY (v_shared) THEN
      -- The operator made it a limited counter after we read it: start over with the right lock.
      RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = 'item stock mode changed';
    END IF;
    v_reserved := item_reserved(v_stock.id, v_lock.id);
    IF v_reserved > 0 AND v_stock.id = ANY (v_shared) THEN
      PERFORM pg_advisory_xact_lock(item_count_lock_class(), item_lock_key(v_stock.id));
      v_reserved := item_reserved(v_stock.id, v_lock.id);
    END IF;
    -- Nothing reserved: the claim below refuses OUT_OF_STOCK itself, still before the debit.
    CONTINUE WHEN v_stock.order_process = 'auto' AND v_reserved = 0;
    IF v_stock.order_process = 'auto' THEN
      -- Counting stops at what is needed: a hot item may hold hundreds of thousands of licenses.
      -- item_id as a range of one, as in the claim below: only the index of available licenses serves it.
      SELECT count(*) INTO v_have FROM (
        SELECT 1 FROM licenses WHERE item_id >= v_stock.id AND item_id <= v_stock.id AND status = 'available'
         ORDER BY item_id, id LIMIT v_reserved + v_stock.wanted) s;
    ELSE
      v_have := v_stock.stock;
    END IF;
    IF v_have - v_reserved < v_stock.wanted THEN
      v_first := array_position(p_items, v_stock.id) - 1;
      PERFORM raise_app('OUT_OF_STOCK', 'carts.' || v_first || '.quantity',
                        'only ' || greatest(v_have - v_reserved, 0) || ' available' || CASE WHEN v_stock.wanted > p_qtys[v_first + 1] THEN ' for all lines of this item' ELSE '' END,
                        jsonb_build_object('item_id', v_stock.id, 'available', greatest(v_have - v_reserved, 0)));
    END IF;
  END LOOP;

  -- An order of auto lines only is delivered in this same transaction: it is born completed.
  INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount, lock_id, finished_at)
  VALUES (p_account, p_ref, p_invoice, CASE WHEN v_open = 0 THEN 'completed' ELSE 'paid' END, v_total, 0, v_total, v_lock.id,
          CASE WHEN v_open = 0 THEN now() END)
  RETURNING id, orders.created_at INTO v_order_id, v_created;

  FOR i IN 1 .. n LOOP
    INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity,
                             unit_price, subtotal, note, status, stock_taken, delivered_at)
    SELECT v_order_id, i - 1, it.id, it.order_process, p.name, it.name, p_qtys[i], v_costs[i] / p_qtys[i], v_costs[i], v_notes[i],
           CASE WHEN it.order_process = 'auto' THEN 'delivered' ELSE 'pending' END,
           CASE WHEN it.order_process <> 'auto' AND NOT it.unlimited_stock THEN p_qtys[i] ELSE 0 END,
           CASE WHEN it.order_process = 'auto' THEN now() END
      FROM items it JOIN products p ON p.id = it.product_id WHERE it.id = p_items[i]
    RETURNING id, order_process, stock_taken INTO v_line_id, v_process, v_claimed;
    IF i = v_bill_line THEN PERFORM bill_paid_by(v_bill.id, v_line_id); END IF;
    IF v_process = 'auto' THEN
      -- sold_at is read after the item row locks gave this transaction its id: the catalog's delta cursor relies on it.
      -- item_id as a range, never `=`: with `=` the planner may take the primary key and walk every sold license.
      -- The claim starts past this connection's last claim of the item (undone with a refused purchase), over
      -- the dead entries sold licenses leave until a vacuum; too few above it: a second pass from the head.
      v_floor_name := 'reseller.license_floor_' || p_items[i];
      v_floor := coalesce(nullif(current_setting(v_floor_name, true), '')::bigint, 0);
      v_claimed := 0;
      v_top := NULL;
      LOOP
        WITH claimed AS (
          UPDATE licenses l SET status = 'sold', order_line_id = v_line_id, sold_at = clock_timestamp()
            FROM (SELECT id FROM licenses WHERE (item_id, id) > (p_items[i], v_floor) AND item_id <= p_items[i] AND status = 'available'
                   ORDER BY item_id, id LIMIT p_qtys[i] - v_claimed FOR UPDATE SKIP LOCKED) picked
           WHERE l.id = picked.id
          RETURNING l.id)
        SELECT count(*), max(id) INTO v_more, v_more_top FROM claimed;
        v_claimed := v_claimed + v_more;
        v_top := greatest(v_top, v_more_top);
        EXIT WHEN v_claimed = p_qtys[i] OR v_floor = 0;
        v_floor := 0;
      END LOOP;
      IF v_claimed < p_qtys[i] THEN
        -- What this purchase could have had: this line's claim and the item's earlier lines.
        v_have := v_claimed + coalesce((SELECT sum(u.qty) FROM unnest(p_items[1:i - 1], p_qtys[1:i - 1]) u(item, qty) WHERE u.item = p_items[i]), 0);
        PERFORM raise_app('OUT_OF_STOCK', 'carts.' || (i - 1) || '.quantity', 'only ' || v_have || ' available',
                          jsonb_build_object('item_id', p_items[i], 'available', v_have));
      END IF;
      PERFORM set_config(v_floor_name, v_top::text, false);
    ELSIF v_claimed > 0 THEN
      UPDATE items SET stock = stock - v_claimed, updated_at = clock_timestamp() WHERE id = p_items[i];
    END IF;
    IF v_process IN ('h2h', 'smm') THEN
      -- h2h: one request per unit of quantity, each at the unit price, or one open-denomination request for
      -- its provider units at the line's cost; smm: one panel order for the whole line. A bill's payment
      -- goes under its inquiry's ref (pay-pasca must reuse it).
      INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, options, quantity, amount)
      SELECT v_order_id, v_line_id, s, it.provider, pr.kind,
             CASE WHEN i = v_bill_line THEN v_bill.upstream_ref ELSE p_invoice || '-' || i || '-' || (s + 1) END, it.provider_code, v_targets[i],
             CASE WHEN i = v_bill_line THEN jsonb_build_object('postpaid', true)
                  WHEN v_units[i] IS NOT NULL THEN jsonb_build_object('qty', v_units[i]) ELSE v_options[i] END,
             CASE WHEN v_units[i] IS NOT NULL THEN v_units[i] WHEN v_process = 'h2h' THEN 1 ELSE p_qtys[i] END,
             CASE WHEN v_process = 'h2h' AND v_units[i] IS NULL THEN v_costs[i] / p_qtys[i] ELSE v_costs[i] END
        FROM items it JOIN providers pr ON pr.code = it.provider,
             generate_series(0, CASE WHEN v_process = 'h2h' AND v_units[i] IS NULL THEN p_qtys[i] ELSE 1 END - 1) s
       WHERE it.id = p_items[i];
      -- Wakes the upstream worker at commit. NOTIFY serializes its committers on one lock, so as with
      -- the outbox bell one transaction at a time rings; the worker's follow-up passes find the rest.
      IF pg_try_advisory_xact_lock(dispatch_bell_lock_class(), 0) THEN PERFORM pg_notify('dispatch', ''); END IF;
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
