-- Stock before locks: unsold licenses for auto items, the counter otherwise, NULL when unlimited.
CREATE OR REPLACE FUNCTION item_stock(p_item bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN i.unlimited_stock THEN NULL
              WHEN i.order_process = 'auto' THEN (SELECT count(*) FROM licenses l WHERE l.item_id = i.id AND l.status = 'available')
              ELSE i.stock END
    FROM items i WHERE i.id = p_item
$$;

-- Held by active, unexpired locks, except the one lock a request presents; expiry needs no sweeper.
CREATE OR REPLACE FUNCTION item_reserved(p_item bigint, p_except_lock bigint DEFAULT NULL) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN (SELECT coalesce(sum(quantity), 0)::bigint FROM stock_locks
           WHERE item_id = p_item AND status = 'active' AND expires_at > clock_timestamp()
             AND id IS DISTINCT FROM p_except_lock);
END
$$;

-- Operators and stock locks take an item exclusively: the fair gate first, then the row.
CREATE OR REPLACE FUNCTION hold_item_exclusively(p_item bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(item_gate_lock_class(), item_lock_key(p_item));
  PERFORM 1 FROM items WHERE id = p_item FOR NO KEY UPDATE;
  RETURN FOUND;
END
$$;

-- Limited stock an order line took and did not use goes back to its item (the line was refunded).
-- It stamps the item itself, so items' trigger neither stamps it again nor rings (catalog-clock.sql): a
-- sale's stock reaches the listing with its next renewal.
CREATE OR REPLACE FUNCTION return_item_stock(p_item bigint, p_qty bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE items SET stock = stock + p_qty, updated_at = clock_timestamp() WHERE id = p_item AND p_qty > 0
$$;

-- A cart's stock, per item over all its lines (p_items, p_qtys), for purchase() under its item row
-- locks; p_shared are the items it holds shared (their gate and FOR SHARE). Answers the first item
-- short of what its lines want, what it has available and what they want, or NULLs when all is there.
CREATE OR REPLACE FUNCTION stock_shortfall(p_items bigint[], p_qtys integer[], p_except_lock bigint, p_shared bigint[],
                                           OUT short_item bigint, OUT available bigint, OUT wanted bigint)
LANGUAGE plpgsql
-- Called by purchase() only, so planned under its SET options; a SET here would cost a save and
-- restore of four settings on every call.
AS $$
DECLARE
  v_stock record;
  v_reserved bigint;
  v_have bigint;
BEGIN
  FOR v_stock IN
    SELECT it.id, it.order_process, it.unlimited_stock, it.stock, w.wanted
      FROM (SELECT u.item, sum(u.qty) AS wanted FROM unnest(p_items, p_qtys) u(item, qty) GROUP BY u.item) w
      JOIN items it ON it.id = w.item
     WHERE NOT it.unlimited_stock
  LOOP
    IF v_stock.order_process <> 'auto' AND v_stock.id = ANY (p_shared) THEN
      -- The operator made it a limited counter after we read it: start over with the right lock.
      RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = 'item stock mode changed';
    END IF;
    v_reserved := item_reserved(v_stock.id, p_except_lock);
    IF v_reserved > 0 AND v_stock.id = ANY (p_shared) THEN
      PERFORM pg_advisory_xact_lock(item_count_lock_class(), item_lock_key(v_stock.id));
      v_reserved := item_reserved(v_stock.id, p_except_lock);
    END IF;
    -- Nothing reserved: the claim (claim_licenses) refuses what it cannot take itself, still before the debit.
    CONTINUE WHEN v_stock.order_process = 'auto' AND v_reserved = 0;
    IF v_stock.order_process = 'auto' THEN
      -- Counting stops at what is needed: a hot item may hold hundreds of thousands of licenses.
      -- item_id as a range of one, as in the claim: only the index of available licenses serves it.
      SELECT count(*) INTO v_have FROM (
        SELECT 1 FROM licenses WHERE item_id >= v_stock.id AND item_id <= v_stock.id AND status = 'available'
         ORDER BY item_id, id LIMIT v_reserved + v_stock.wanted) s;
    ELSE
      v_have := v_stock.stock;
    END IF;
    IF v_have - v_reserved < v_stock.wanted THEN
      short_item := v_stock.id;
      available := greatest(v_have - v_reserved, 0);
      wanted := v_stock.wanted;
      RETURN;
    END IF;
  END LOOP;
END
$$;

-- An auto order line's licenses (p_line), at most p_quantity of the item's available ones; answers
-- how many it took. sold_at is read after the item row locks gave this transaction its id: the
-- catalog's delta cursor relies on it. item_id as a range, never `=`: with `=` the planner may take
-- the primary key and walk every sold license. The claim starts past this connection's last claim of
-- the item (undone with a refused purchase), over the dead entries sold licenses leave until a
-- vacuum; too few above it: a second pass from the head. A full claim moves the floor.
CREATE OR REPLACE FUNCTION claim_licenses(p_item bigint, p_line bigint, p_quantity integer) RETURNS integer
LANGUAGE plpgsql
-- Called by purchase() only, so planned under its SET options; a SET here would cost a save and
-- restore of four settings on every call.
AS $$
DECLARE
  v_floor_name text := 'reseller.license_floor_' || p_item;
  v_floor bigint := coalesce(nullif(current_setting(v_floor_name, true), '')::bigint, 0);
  v_claimed integer := 0;
  v_top bigint;
  v_more integer;
  v_more_top bigint;
BEGIN
  LOOP
    WITH claimed AS (
      UPDATE licenses l SET status = 'sold', order_line_id = p_line, sold_at = clock_timestamp()
        FROM (SELECT id FROM licenses WHERE (item_id, id) > (p_item, v_floor) AND item_id <= p_item AND status = 'available'
               ORDER BY item_id, id LIMIT p_quantity - v_claimed FOR UPDATE SKIP LOCKED) picked
       WHERE l.id = picked.id
      RETURNING l.id)
    SELECT count(*), max(id) INTO v_more, v_more_top FROM claimed;
    v_claimed := v_claimed + v_more;
    v_top := greatest(v_top, v_more_top);
    EXIT WHEN v_claimed = p_quantity OR v_floor = 0;
    v_floor := 0;
  END LOOP;
  IF v_claimed = p_quantity THEN PERFORM set_config(v_floor_name, v_top::text, false); END IF;
  RETURN v_claimed;
END
$$;

-- An order line's limited stock leaves its item's counter (return_item_stock gives it back), stamped
-- here as a sale, without a bell (catalog-clock.sql).
CREATE OR REPLACE FUNCTION take_item_stock(p_item bigint, p_qty bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE items SET stock = stock - p_qty, updated_at = clock_timestamp() WHERE id = p_item;
END
$$;

-- A complaint's resend of an auto line (docs/design.md §14): the licenses the line holds turn `void`
-- (delivered once, never back in stock) and p_count available ones, net of active stock locks, are
-- sold to it (0: a typed replacement took their place). The item held exclusively first, as an
-- operator's stock change does; the caller holds the line's order row (orders before items). The
-- number of licenses claimed; too few available raises INSUFFICIENT_STOCK and changes nothing.
CREATE OR REPLACE FUNCTION resend_line_licenses(p_item bigint, p_line bigint, p_count integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_available bigint;
  v_claimed integer;
BEGIN
  PERFORM hold_item_exclusively(p_item);
  IF p_count > 0 THEN
    SELECT count(*) - item_reserved(p_item) INTO v_available
      FROM (SELECT 1 FROM licenses WHERE item_id >= p_item AND item_id <= p_item AND status = 'available'
             ORDER BY item_id, id LIMIT p_count + item_reserved(p_item)) s;
    IF v_available < p_count THEN
      PERFORM raise_app('INSUFFICIENT_STOCK', 'mode',
                        'No license of this item is free for a resend: add licenses, or resend with mode manual and a typed one.',
                        jsonb_build_object('item_id', p_item, 'available', greatest(v_available, 0), 'wanted', p_count));
    END IF;
  END IF;
  UPDATE licenses SET status = 'void' WHERE order_line_id = p_line AND status = 'sold';
  WITH claimed AS (
    UPDATE licenses l SET status = 'sold', order_line_id = p_line, sold_at = clock_timestamp()
      FROM (SELECT id FROM licenses WHERE item_id >= p_item AND item_id <= p_item AND status = 'available'
             ORDER BY item_id, id LIMIT p_count FOR UPDATE SKIP LOCKED) picked
     WHERE l.id = picked.id
    RETURNING l.id)
  SELECT count(*) INTO v_claimed FROM claimed;
  IF v_claimed < p_count THEN
    PERFORM raise_app('INSUFFICIENT_STOCK', 'mode', 'No license of this item is free for a resend: add licenses, or resend with mode manual.',
                      jsonb_build_object('item_id', p_item, 'available', v_claimed, 'wanted', p_count));
  END IF;
  RETURN v_claimed;
END
$$;
