-- The item checks of a purchase, in its order (docs/design.md §5), for purchase(), sandbox orders and stock
-- locks alike: the item exists and is active, its provider is on (or a source serves), the line meets
-- the minimum, the item's quantity over the whole cart (p_item_total) stays within its maximum, the
-- line costs at most money_max(), and a fulfilment can take it.
-- p_field prefixes the field paths ('carts.0'; NULL for a body with one item). p_processes NULL:
-- the caller checks fulfilment itself, later (purchase() checks the notes first). p_level: the buyer's
-- price level (docs/design.md §5d). Returns the item, priced at that level.
CREATE OR REPLACE FUNCTION refuse_unsellable(p_item bigint, p_quantity bigint, p_item_total bigint, p_processes text[], p_field text,
                                             p_level bigint)
RETURNS items LANGUAGE plpgsql AS $$
DECLARE
  v_item items%ROWTYPE;
  v_price bigint;
BEGIN
  SELECT * INTO v_item FROM items WHERE id = p_item;
  IF NOT FOUND OR NOT v_item.active THEN
    PERFORM raise_app('ITEM_NOT_FOUND', concat_ws('.', p_field, 'item_id'), 'no active item has this id: see GET /api/v1/item');
  END IF;
  -- The buyer's level's price is the price (docs/design.md §5d): every check below and every caller
  -- reads it from the returned row. p_level NULL: the item's own (the operator's view).
  IF p_level IS NOT NULL THEN
    SELECT lp.price INTO v_price FROM item_level_prices lp WHERE lp.item_id = p_item AND lp.level_id = p_level;
    IF FOUND THEN v_item.price := v_price; END IF;
  END IF;
  -- An item bought from supplier sources is sellable while one of them serves (sources.sql);
  -- one index probe tells the others, which follow their own provider.
  IF provider_kind_of(v_item.order_process) IS NOT NULL AND EXISTS (SELECT 1 FROM item_sources s WHERE s.item_id = p_item) THEN
    IF NOT EXISTS (SELECT 1 FROM serving_sources(p_item, now(), v_item.price)) THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', concat_ws('.', p_field, 'item_id'));
    END IF;
  -- Nested, not one condition: for an item without a provider that one folded to false, so
  -- PostgreSQL planned it anew at every purchase (pg_stat_statements: as many plans as calls).
  ELSIF v_item.provider IS NULL THEN
    IF provider_kind_of(v_item.order_process) IS NOT NULL THEN PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', concat_ws('.', p_field, 'item_id')); END IF;
  ELSIF NOT (SELECT active FROM providers WHERE code = v_item.provider) THEN
    PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', concat_ws('.', p_field, 'item_id'));
  END IF;
  IF p_quantity < v_item.min_order THEN
    PERFORM raise_app('MINIMUM_ORDER_NOT_MET', concat_ws('.', p_field, 'quantity'), 'must be at least ' || v_item.min_order || ' (the minimum order)');
  END IF;
  IF p_item_total > v_item.max_order THEN
    PERFORM raise_app('VALIDATION_ERROR', concat_ws('.', p_field, 'quantity'),
                      CASE WHEN p_item_total > p_quantity THEN 'must be at most ' || v_item.max_order || ' for this item over all lines of it'
                           ELSE 'must be at most ' || v_item.max_order || ' for this item' END);
  END IF;
  -- In numeric: a price times a quantity can pass what a bigint holds.
  IF v_item.price::numeric * p_quantity > money_max() THEN
    PERFORM raise_app('VALIDATION_ERROR', concat_ws('.', p_field, 'quantity'), 'the line would cost more than ' || money_max());
  END IF;
  IF p_processes IS NOT NULL AND NOT v_item.order_process = ANY (p_processes) THEN
    PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', concat_ws('.', p_field, 'item_id'));
  END IF;
  RETURN v_item;
END
$$;
