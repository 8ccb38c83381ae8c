-- A purchase's own line checks: purchase() (purchase.sql) calls them, and only it.

-- Provider requests one h2h line may make: bounds the rows a purchase writes.
CREATE OR REPLACE FUNCTION h2h_requests_max() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 100';

-- A purchase's line after its item's checks (refuse_unsellable), in the contract's order: a postpaid
-- item only with an inquiry (POST /v1/trx/tagihan), the note rules (orders/cart-line.sql), a bill priced by its
-- inquiry (one per purchase: p_bill_taken; bills/bills.sql locks and checks it; its amount is within
-- money_max() by the table's CHECK, as check_cart_line() bounds every other line's cost), a fulfilment
-- for its process, a provider of the right protocol, the h2h request bound. Answers check_cart_line()'s fields and, for a bill, its inquiry's id and upstream ref.
CREATE OR REPLACE FUNCTION check_purchase_line(p_field text, p_item items, p_quantity integer, p_note text, p_processes text[],
                                               p_account bigint, p_inquiry bigint, p_bill_taken boolean,
                                               OUT note text, OUT target text, OUT options jsonb, OUT provider_qty integer,
                                               OUT cost numeric, OUT bill_id bigint, OUT bill_ref text)
LANGUAGE plpgsql
-- Called by purchase() only, so planned under its SET options; a SET here would cost a save and
-- restore of four settings on every call.
AS $$
DECLARE
  v_process text := p_item.order_process;
  v_postpaid boolean := p_item.order_process = 'h2h' AND coalesce((p_item.provider_meta->>'postpaid')::boolean, false);
  v_bill bill_inquiries%ROWTYPE;
  v_kind_ok boolean;
BEGIN
  IF v_postpaid AND p_inquiry IS NULL THEN
    PERFORM raise_app('VALIDATION_ERROR', p_field || '.item_id', 'a postpaid item is paid through POST /v1/trx/tagihan');
  END IF;
  -- The note is checked trimmed and stored as checked; an open denomination is priced by its size.
  SELECT c.note, c.target, c.options, c.provider_qty, c.cost INTO note, target, options, provider_qty, cost
    FROM check_cart_line(p_field, p_item, p_quantity, p_note) c;
  IF v_postpaid THEN
    IF p_bill_taken THEN PERFORM raise_app('VALIDATION_ERROR', 'carts', 'one postpaid bill per transaction'); END IF;
    v_bill := bill_for_payment(p_account, p_inquiry, p_item.id, target);
    bill_id := v_bill.id;
    bill_ref := v_bill.upstream_ref;
    cost := v_bill.amount;
  END IF;
  IF NOT v_process = ANY (p_processes) THEN
    PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', p_field || '.item_id');
  END IF;
  IF provider_kind_of(v_process) IS NOT NULL THEN
    -- A provider of the wrong protocol or an unmapped item is a catalog fault: not sellable now.
    SELECT kind = provider_kind_of(v_process) INTO v_kind_ok
      FROM providers WHERE code = p_item.provider;
    IF v_kind_ok IS NOT TRUE OR coalesce(btrim(p_item.provider_code), '') = '' THEN
      PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', p_field || '.item_id');
    END IF;
    IF v_process = 'h2h' AND provider_qty IS NULL AND p_quantity > h2h_requests_max() THEN
      PERFORM raise_app('VALIDATION_ERROR', p_field || '.quantity', 'must be at most ' || h2h_requests_max() || ' for an h2h item (one provider request each)');
    END IF;
  END IF;
END
$$;
