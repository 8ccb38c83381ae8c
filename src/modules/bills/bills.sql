-- Postpaid bills (docs/design.md §5c): the inquiry a bill's payment uses, for purchase() (checkout/purchase.sql),
-- which prices the line by it and links it to the line in the purchase's own transaction.

-- The inquiry a postpaid line pays, locked until the purchase ends: this account's (another's is
-- not found), unpaid, not refused by the floor, for this item and customer, unexpired. A second payment of it waits on the
-- row lock, then finds it paid.
CREATE OR REPLACE FUNCTION bill_for_payment(p_account bigint, p_inquiry bigint, p_item bigint, p_customer text)
RETURNS bill_inquiries LANGUAGE plpgsql AS $$
DECLARE
  v bill_inquiries%ROWTYPE;
  v_ref text;
  v_expired text;
BEGIN
  SELECT * INTO v FROM bill_inquiries WHERE id = p_inquiry AND account_id = p_account FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    PERFORM raise_app('INQUIRY_NOT_FOUND', 'inquiry_id', 'no inquiry of yours has this id: ask one with POST /api/v1/trx/tagihan/inquiry');
  END IF;
  IF v.order_line_id IS NOT NULL THEN
    SELECT o.ref_id INTO v_ref FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id = v.order_line_id;
    PERFORM raise_app('INQUIRY_ALREADY_USED', 'inquiry_id', 'this bill was paid by your transaction ' || v_ref || ': a new bill needs a new inquiry',
                      jsonb_build_object('inquiry_id', v.id, 'ref_id', v_ref));
  END IF;
  -- The floor refused it at its inquiry (docs/design.md §11c): the supplier's price was above what it would be paid.
  IF v.floor_refused THEN
    PERFORM raise_app('PRODUCT_TEMPORARILY_UNAVAILABLE', 'inquiry_id', 'the provider charges more for this bill than this item may take for it: it cannot be paid now; ask a new inquiry later',
                      jsonb_build_object('inquiry_id', v.id));
  END IF;
  IF v.item_id <> p_item THEN
    PERFORM raise_app('VALIDATION_ERROR', 'inquiry_id', 'is an inquiry for item ' || v.item_id || ': pay it with that item_id, or ask an inquiry for this item');
  END IF;
  IF v.customer_no IS DISTINCT FROM p_customer THEN
    PERFORM raise_app('VALIDATION_ERROR', 'customer_id', 'is not the customer of inquiry ' || v.id || ' (' || v.customer_no
                      || '): send that customer_id, or ask an inquiry for this customer');
  END IF;
  IF v.expires_at <= clock_timestamp() THEN
    v_expired := to_char(v.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    PERFORM raise_app('INQUIRY_EXPIRED', 'inquiry_id', 'expired at ' || v_expired || ': ask a new inquiry (the bill may have changed)');
  END IF;
  RETURN v;
END
$$;

-- The inquiry is paid by this order line: it never pays again (bill_for_payment refuses it).
CREATE OR REPLACE FUNCTION bill_paid_by(p_inquiry bigint, p_line bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE bill_inquiries SET order_line_id = p_line WHERE id = p_inquiry AND order_line_id IS NULL;
  IF NOT FOUND THEN RAISE EXCEPTION 'bill inquiry % is paid already', p_inquiry; END IF;
END
$$;
