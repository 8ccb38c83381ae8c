-- The upstream requests of a purchase's h2h or smm order line (DESIGN §5), written with the order:
-- h2h one request per unit of quantity, each at the unit price, or one open-denomination request for
-- its provider units (p_units) at the line's cost; smm one panel order for the whole line. Each
-- request's upstream ref derives from the invoice and the line's number (from 1), so sending it again
-- is a status check, never a second order; a bill's payment goes under its inquiry's ref (p_bill_ref:
-- pay-pasca must reuse it). Rings NOTIFY dispatch for the upstream worker at commit.
CREATE OR REPLACE FUNCTION plan_dispatches(p_order bigint, p_line bigint, p_line_number integer, p_invoice text, p_item bigint,
                                           p_process text, p_quantity integer, p_cost bigint, p_target text, p_options jsonb,
                                           p_units integer, p_bill_ref text) RETURNS void
LANGUAGE plpgsql
-- Called by purchase() only, so planned under its SET options; a SET here would cost a save and
-- restore of four settings on every call.
AS $$
BEGIN
  INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, options, quantity, amount)
  SELECT p_order, p_line, s, it.provider, pr.kind,
         coalesce(p_bill_ref, p_invoice || '-' || p_line_number || '-' || (s + 1)), it.provider_code, p_target,
         CASE WHEN p_bill_ref IS NOT NULL THEN jsonb_build_object('postpaid', true)
              WHEN p_units IS NOT NULL THEN jsonb_build_object('qty', p_units) ELSE p_options END,
         CASE WHEN p_units IS NOT NULL THEN p_units WHEN p_process = 'h2h' THEN 1 ELSE p_quantity END,
         CASE WHEN p_process = 'h2h' AND p_units IS NULL THEN p_cost / p_quantity ELSE p_cost END
    FROM items it JOIN providers pr ON pr.code = it.provider,
         generate_series(0, CASE WHEN p_process = 'h2h' AND p_units IS NULL THEN p_quantity ELSE 1 END - 1) s
   WHERE it.id = p_item;
  -- Wakes the upstream worker at commit. NOTIFY serializes its committers on one lock, so as with
  -- the outbox bell one transaction at a time rings; the worker's follow-up passes find the rest.
  IF pg_try_advisory_xact_lock(dispatch_bell_lock_class(), 0) THEN PERFORM pg_notify('dispatch', ''); END IF;
END
$$;
