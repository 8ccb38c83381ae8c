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
CREATE OR REPLACE FUNCTION return_item_stock(p_item bigint, p_qty bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE items SET stock = stock + p_qty, updated_at = clock_timestamp() WHERE id = p_item AND p_qty > 0
$$;
