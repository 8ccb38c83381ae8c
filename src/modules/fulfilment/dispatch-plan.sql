-- The upstream requests of a purchase's h2h or smm order line (docs/design.md §5), written with the order:
-- h2h one request per unit of quantity, each at the unit price, or one open-denomination request for
-- its provider units (p_units) at the line's cost; smm one panel order for the whole line. Each
-- request's upstream ref derives from the invoice and the line's number (from 1), so sending it again
-- is a status check, never a second order; a bill's payment goes under its inquiry's ref (p_bill_ref:
-- pay-pasca must reuse it); p_level: the buyer's price level. Rings NOTIFY dispatch for the upstream worker at commit.
-- cost: what the supplier charges for the request (NULL when unknown). max_cost: the most it may cost
-- and keep the floor at the price paid (docs/design.md §11c), which failover holds its next source to.
CREATE OR REPLACE FUNCTION plan_dispatches(p_order bigint, p_line bigint, p_line_number integer, p_invoice text, p_item bigint,
                                           p_process text, p_quantity integer, p_cost bigint, p_target text, p_options jsonb,
                                           p_units integer, p_bill_ref text, p_level bigint) RETURNS void
LANGUAGE plpgsql
-- Called by purchase() only, so planned under its SET options; a SET here would cost a save and
-- restore of four settings on every call.
AS $$
DECLARE
  v_provider text;
  v_code text;
  v_price numeric;
  v_level_price bigint;
BEGIN
  -- An item with sources goes to the first that serves (catalog/sources.sql; purchase() checked
  -- one does), priced at its supplier price; one without (one index probe finds none) follows its
  -- own provider. A bill stays with the provider that quoted it.
  IF p_bill_ref IS NULL THEN
    -- At the buyer's level's price (docs/design.md §5d), the one purchase() checked a source serves at;
    -- the first whose provider can pay for the line (docs/design.md §11e). The level's price is read
    -- first: a subquery among serving_sources()' arguments keeps it from being inlined, and each call
    -- then planned its body anew (0.6 ms a purchase).
    v_level_price := (SELECT lp.price FROM item_level_prices lp WHERE lp.item_id = p_item AND lp.level_id = p_level);
    SELECT s.provider, s.code, s.price INTO v_provider, v_code, v_price
      FROM serving_sources(p_item, now(), v_level_price) s
     WHERE source_funded(s.provider, cost_of(s.price, CASE WHEN p_units IS NULL THEN p_quantity
                                                          ELSE (SELECT units_of_price(i.provider_meta, p_units) FROM items i WHERE i.id = p_item) END))
     LIMIT 1;
    -- None: the item has no sources (it follows its own provider, which must be able to pay), or none can pay now.
    IF NOT FOUND AND NOT EXISTS (
         SELECT 1 FROM items i
          WHERE i.id = p_item AND NOT EXISTS (SELECT 1 FROM item_sources x WHERE x.item_id = p_item)
            AND source_funded(i.provider, cost_of(i.cost, CASE WHEN p_units IS NULL THEN p_quantity ELSE units_of_price(i.provider_meta, p_units) END))) THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', 'carts.' || (p_line_number - 1) || '.item_id',
                        'no supplier can fill this item now: try again later');
    END IF;
  END IF;
  INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, options, quantity, amount, cost,
                          max_cost)
  SELECT p_order, p_line, s, pr.code, pr.kind,
         coalesce(p_bill_ref, p_invoice || '-' || p_line_number || '-' || (s + 1)), coalesce(v_code, it.provider_code), p_target,
         CASE WHEN p_bill_ref IS NOT NULL THEN jsonb_build_object('postpaid', true)
              WHEN p_units IS NOT NULL THEN jsonb_build_object('qty', p_units) ELSE p_options END,
         q.quantity, q.amount,
         -- What the supplier charges for it: the source's price (an item without sources: its cost), per
         -- unit of the item's price (an open denomination's units count in the price's unit, as check_cart_line prices them);
         -- a bill's: the supplier's price from its inquiry (docs/design.md §11c).
         CASE WHEN p_bill_ref IS NOT NULL THEN (SELECT b.provider_price FROM bill_inquiries b WHERE b.upstream_ref = p_bill_ref)
              ELSE cost_of(CASE WHEN v_provider IS NULL THEN it.cost ELSE v_price END, q.units) END,
         -- The amount paid less the floor margin per unit of price bought, never below 0. No bound for an
         -- item allowed a loss, a bill (its inquiry has a floor of its own), or an item without sources
         -- whose cost is unknown (nothing to hold it to).
         CASE WHEN p_bill_ref IS NULL AND NOT it.allow_loss AND (v_provider IS NOT NULL OR it.cost IS NOT NULL)
              THEN greatest(floor(q.amount - floor_margin(it.min_margin) * q.units), 0)::bigint END
    FROM items it JOIN providers pr ON pr.code = coalesce(v_provider, it.provider),
         LATERAL (SELECT CASE WHEN p_units IS NOT NULL THEN p_units WHEN p_process = 'h2h' THEN 1 ELSE p_quantity END AS quantity,
                         CASE WHEN p_units IS NOT NULL THEN units_of_price(it.provider_meta, p_units)
                              WHEN p_process = 'h2h' THEN 1 ELSE p_quantity END AS units,
                         CASE WHEN p_process = 'h2h' AND p_units IS NULL THEN p_cost / p_quantity ELSE p_cost END AS amount) q,
         generate_series(0, CASE WHEN p_process = 'h2h' AND p_units IS NULL THEN p_quantity ELSE 1 END - 1) s
   WHERE it.id = p_item;
  -- Wakes the upstream worker at commit. NOTIFY serializes its committers on one lock, so as with
  -- the outbox bell one transaction at a time rings; the worker's follow-up passes find the rest.
  IF pg_try_advisory_xact_lock(dispatch_bell_lock_class(), 0) THEN PERFORM pg_notify('dispatch', ''); END IF;
END
$$;
