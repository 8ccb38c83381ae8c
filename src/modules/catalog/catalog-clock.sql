-- The time a catalog change is stamped with (items.updated_at), taken after the transaction has its
-- id: a delta cursor from pg_current_snapshot() (sync-clock.ts) then bounds every change still in flight.
CREATE OR REPLACE FUNCTION catalog_change_time() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_current_xact_id();
  RETURN clock_timestamp();
END
$$;

-- The catalog's clock moves by itself (docs/design.md §5b): the triggers of migration 20261206_0360 on
-- the tables the listing reads stamp the items a write changes (items.updated_at, with
-- catalog_change_time()) and ring NOTIFY catalog_changed (catalog-snapshot.ts: every process renews
-- its snapshot), in the write's own transaction. No service stamps or announces a change itself.
-- A sale is the exception, by design (docs/design.md §5b: the listing's stock lags sales by at most a
-- second, and no sale rings a bell every process answers): a purchase's and a refund's stock change
-- (stock.sql) set updated_at themselves, and a write to items that sets updated_at is taken at its
-- word, neither stamped again nor announced; licenses sold (an UPDATE) are not watched, the listing
-- reads their sold_at.
-- NOTIFY sends one catalog_changed per transaction however often it is rung.

-- Before an items row is written (inserted, or updated without a stamp of its own): its stamp and the bell.
CREATE OR REPLACE FUNCTION stamp_catalog_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := catalog_change_time();
  PERFORM pg_notify('catalog_changed', '');
  RETURN NEW;
END
$$;

-- Items whose listing changed through another table: each stamped, taken as every writer of items
-- takes them (its gate, then its row: hold_item_exclusively, in ascending id), then the bell. An item
-- this transaction wrote already is left as it is: it carries a stamp of this transaction (an import's
-- new items, an item whose sources are replaced), and an import's thousands are not taken one by one.
CREATE OR REPLACE FUNCTION touch_catalog_items(p_items bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(p_items) = 0 THEN RETURN; END IF;
  PERFORM hold_item_exclusively(id) FROM items WHERE id = ANY (p_items) AND xmin <> pg_current_xact_id()::xid ORDER BY id;
  UPDATE items SET updated_at = catalog_change_time() WHERE id = ANY (p_items) AND xmin <> pg_current_xact_id()::xid;
  PERFORM pg_notify('catalog_changed', '');
END
$$;

-- After a write to a table the listing reads beside items, the items it changed are touched: a
-- product's or category's name or picture (its items show them), a provider switched or of another
-- kind (the items it serves, by their provider or as a source), an item's sources (its status), its
-- licenses added or removed (its stock), a supplier product switched, gone or back, a new MIN_MARGIN.
-- Statement triggers see the rows as the transition table `changed`; the providers', supplier products'
-- and margin settings' are row triggers (with WHEN). items' own deletes just ring.
CREATE OR REPLACE FUNCTION catalog_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'products' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT i.id FROM items i WHERE i.product_id IN (SELECT c.id FROM changed c)));
    WHEN 'categories' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT i.id FROM items i JOIN products p ON p.id = i.product_id
                                         WHERE p.category_id IN (SELECT c.id FROM changed c)));
    WHEN 'providers' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT i.id FROM items i WHERE i.provider = NEW.code
                                        UNION SELECT s.item_id FROM item_sources s WHERE s.provider = NEW.code));
    WHEN 'item_sources', 'licenses' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT DISTINCT c.item_id FROM changed c));
    -- Row triggers (migration 0470): a supplier product switched, gone or back (the items it sources);
    -- a new MIN_MARGIN (the items with sources no pricing rule's margin covers).
    WHEN 'supplier_products' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT s.item_id FROM item_sources s WHERE s.provider = NEW.provider AND s.code = NEW.code));
    WHEN 'margin_settings' THEN
      PERFORM touch_catalog_items(ARRAY(SELECT i.id FROM items i
                                         WHERE i.min_margin IS NULL AND EXISTS (SELECT 1 FROM item_sources s WHERE s.item_id = i.id)));
    ELSE
      PERFORM pg_notify('catalog_changed', '');
  END CASE;
  RETURN NULL;
END
$$;
