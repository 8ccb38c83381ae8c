/**
 * purchase(): the whole of POST /v1/trx in one round trip, in the order of checks of DESIGN §5.
 * Part of migration 20261122_0002 (append-only: change it with CREATE OR REPLACE in a new one).
 * Rows are locked items (ascending id) → account (in post_ledger_entry) → stock lock. Any refusal
 * raises, so a refused purchase stores nothing and leaves its ref_id free.
 */
export const purchaseFunction = `
CREATE FUNCTION purchase(p_account bigint, p_ref text, p_invoice text, p_carts jsonb, p_lock_token text, p_processes text[])
RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  v_lock stock_locks%ROWTYPE;
  v_order_id bigint;
  v_created timestamptz;
  v_line jsonb;
  v_pos integer;
  v_qty integer;
  v_note text;
  v_json jsonb;
  v_item record;
  v_stock record;
  v_sale record;
  v_total bigint := 0;
  v_reserved bigint;
  v_have bigint;
  v_line_id bigint;
  v_claimed integer;
  v_open integer := 0;
BEGIN
  INSERT INTO ref_ids (account_id, ref_id, kind) VALUES (p_account, p_ref, 'order') ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('error', 'REF_ID_ALREADY_EXIST');
  END IF;

  IF p_lock_token IS NOT NULL THEN
    SELECT * INTO v_lock FROM stock_locks WHERE token = p_lock_token AND account_id = p_account;
    IF NOT FOUND THEN PERFORM raise_app('LOCK_NOT_FOUND'); END IF;
    IF v_lock.status = 'used' THEN PERFORM raise_app('LOCK_ALREADY_USED'); END IF;
    IF v_lock.status = 'released' THEN PERFORM raise_app('LOCK_RELEASED'); END IF;
    IF v_lock.status = 'expired' OR v_lock.expires_at <= clock_timestamp() THEN PERFORM raise_app('LOCK_EXPIRED'); END IF;
    IF (SELECT count(*) FROM jsonb_array_elements(p_carts) c WHERE (c->>'item_id')::bigint = v_lock.item_id) <> 1
       OR NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_carts) c
                       WHERE (c->>'item_id')::bigint = v_lock.item_id AND (c->>'quantity')::integer = v_lock.quantity) THEN
      PERFORM raise_app('LOCK_MISMATCH');
    END IF;
  END IF;

  -- Item rows in one global order, so concurrent purchases never deadlock.
  PERFORM 1 FROM items WHERE id IN (SELECT (c->>'item_id')::bigint FROM jsonb_array_elements(p_carts) c) ORDER BY id FOR UPDATE;

  FOR v_line, v_pos IN SELECT value, ordinality - 1 FROM jsonb_array_elements(p_carts) WITH ORDINALITY LOOP
    v_qty := (v_line->>'quantity')::integer;
    SELECT i.*, pr.active AS provider_active INTO v_item
      FROM items i LEFT JOIN providers pr ON pr.code = i.provider WHERE i.id = (v_line->>'item_id')::bigint;
    IF NOT FOUND OR NOT v_item.active THEN PERFORM raise_app('ITEM_NOT_FOUND', 'carts.' || v_pos || '.item_id'); END IF;
    IF (v_item.provider IS NOT NULL AND NOT v_item.provider_active)
       OR (v_item.order_process IN ('h2h', 'smm') AND v_item.provider IS NULL) THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', 'carts.' || v_pos || '.item_id');
    END IF;
    IF v_qty < v_item.min_order THEN PERFORM raise_app('MINIMUM_ORDER_NOT_MET', 'carts.' || v_pos || '.quantity'); END IF;
    IF v_qty > v_item.max_order THEN
      PERFORM raise_app('VALIDATION_ERROR', 'carts.' || v_pos || '.quantity', 'must be at most ' || v_item.max_order || ' for this item');
    END IF;
    v_note := nullif(btrim(v_line->>'note'), '');
    IF v_note IS NULL AND v_item.order_process IN ('h2h', 'smm') THEN
      PERFORM raise_app('REQUIRED_FIELD_MISSING', 'carts.' || v_pos || '.note', 'the target number, account or link is required');
    END IF;
    IF v_note IS NOT NULL AND left(v_note, 1) = '{' AND (v_item.order_process = 'smm'
        OR (v_item.order_process = 'h2h' AND coalesce((v_item.provider_meta->>'open_denom')::boolean, false))) THEN
      BEGIN
        v_json := v_note::jsonb;
      EXCEPTION WHEN others THEN
        v_json := NULL;
      END;
      IF v_json IS NULL OR jsonb_typeof(v_json) <> 'object' OR jsonb_typeof(v_json->'target') IS DISTINCT FROM 'string'
         OR btrim(v_json->>'target') = '' THEN
        IF v_item.order_process = 'smm' THEN PERFORM raise_app('SMM_ORDER_REQUIRES_JSON_NOTE', 'carts.' || v_pos || '.note'); END IF;
        PERFORM raise_app('VALIDATION_ERROR', 'carts.' || v_pos || '.note', 'must be a JSON object with a target');
      END IF;
      IF length(v_json->>'target') > 50 THEN
        PERFORM raise_app('VALIDATION_ERROR', 'carts.' || v_pos || '.note', 'target must be at most 50 characters');
      END IF;
    ELSIF length(v_note) > 50 THEN
      PERFORM raise_app('VALIDATION_ERROR', 'carts.' || v_pos || '.note', 'must be at most 50 characters');
    END IF;
    IF NOT v_item.order_process = ANY (p_processes) THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', 'carts.' || v_pos || '.item_id');
    END IF;
    v_total := v_total + v_item.price * v_qty;
  END LOOP;

  -- Stock, per item over all its lines, computed under the item row locks.
  FOR v_stock IN
    SELECT i.id, i.order_process, i.unlimited_stock, i.stock, sum((c->>'quantity')::integer) AS wanted
      FROM jsonb_array_elements(p_carts) c JOIN items i ON i.id = (c->>'item_id')::bigint
     GROUP BY i.id ORDER BY i.id
  LOOP
    CONTINUE WHEN v_stock.unlimited_stock;
    v_reserved := item_reserved(v_stock.id, v_lock.id);
    IF v_stock.order_process = 'auto' THEN
      -- Counting stops at what is needed: a hot item may hold hundreds of thousands of licenses.
      SELECT count(*) INTO v_have FROM (
        SELECT 1 FROM licenses WHERE item_id = v_stock.id AND status = 'available' ORDER BY item_id, id LIMIT v_reserved + v_stock.wanted) s;
    ELSE
      v_have := v_stock.stock;
    END IF;
    IF v_have - v_reserved < v_stock.wanted THEN PERFORM raise_app('INSUFFICIENT_STOCK'); END IF;
  END LOOP;

  INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount, lock_id)
  VALUES (p_account, p_ref, p_invoice, 'paid', v_total, 0, v_total, v_lock.id)
  RETURNING id, created_at INTO v_order_id, v_created;

  IF v_total > 0 AND NOT EXISTS (SELECT 1 FROM post_ledger_entry(p_account, 'debit', 'purchase', v_total, 'Purchase ' || p_invoice,
                                                 p_invoice, NULL, v_order_id, NULL, NULL)) THEN
    PERFORM raise_app('BALANCE_IS_INSUFFICIENT');
  END IF;

  FOR v_line, v_pos IN SELECT value, ordinality - 1 FROM jsonb_array_elements(p_carts) WITH ORDINALITY LOOP
    v_qty := (v_line->>'quantity')::integer;
    SELECT i.*, p.name AS product_name INTO v_sale FROM items i JOIN products p ON p.id = i.product_id
     WHERE i.id = (v_line->>'item_id')::bigint;
    INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity,
                             unit_price, subtotal, note, status, stock_taken, delivered_at)
    VALUES (v_order_id, v_pos, v_sale.id, v_sale.order_process, v_sale.product_name, v_sale.name, v_qty,
            v_sale.price, v_sale.price * v_qty, v_line->>'note',
            CASE WHEN v_sale.order_process = 'auto' THEN 'delivered' ELSE 'pending' END,
            CASE WHEN v_sale.order_process <> 'auto' AND NOT v_sale.unlimited_stock THEN v_qty ELSE 0 END,
            CASE WHEN v_sale.order_process = 'auto' THEN now() END)
    RETURNING id INTO v_line_id;
    IF v_sale.order_process = 'auto' THEN
      UPDATE licenses l SET status = 'sold', order_line_id = v_line_id, sold_at = now()
        FROM (SELECT id FROM licenses WHERE item_id = v_sale.id AND status = 'available'
               ORDER BY item_id, id LIMIT v_qty FOR UPDATE SKIP LOCKED) picked
       WHERE l.id = picked.id;
      GET DIAGNOSTICS v_claimed = ROW_COUNT;
      IF v_claimed < v_qty THEN PERFORM raise_app('INSUFFICIENT_STOCK'); END IF;
    ELSE
      v_open := v_open + 1;
      IF NOT v_sale.unlimited_stock THEN
        UPDATE items SET stock = stock - v_qty WHERE id = v_sale.id;
      END IF;
    END IF;
  END LOOP;

  -- A sale is a stock change: the catalog's delta sync must see it.
  UPDATE items SET updated_at = clock_timestamp()
   WHERE id IN (SELECT (c->>'item_id')::bigint FROM jsonb_array_elements(p_carts) c) AND NOT unlimited_stock;

  IF v_lock.id IS NOT NULL THEN
    UPDATE stock_locks SET status = 'used', finished_at = clock_timestamp(), order_id = v_order_id
     WHERE id = v_lock.id AND status = 'active' AND expires_at > clock_timestamp();
    IF NOT FOUND THEN PERFORM raise_app('LOCK_EXPIRED'); END IF;
  END IF;

  INSERT INTO outbox_events (account_id, event, order_id) VALUES (p_account, 'order.paid', v_order_id);
  IF v_open = 0 THEN
    UPDATE orders SET status = 'completed', finished_at = clock_timestamp(), updated_at = clock_timestamp() WHERE id = v_order_id;
    INSERT INTO outbox_events (account_id, event, order_id) VALUES (p_account, 'order.completed', v_order_id);
  END IF;

  RETURN jsonb_build_object('id', v_order_id, 'invoice', p_invoice, 'ref_id', p_ref, 'amount', v_total,
                            'status', 'paid', 'created_at', to_char(v_created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
END
$fn$`
