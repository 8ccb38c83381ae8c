-- Complaints' database functions (docs/design.md §14). A complaint's row is locked after its order's
-- (a refund holds both); nothing locks them the other way round.

-- What a complaint.updated event carries (the webhook's data without event_id): the complaint now,
-- with its last message.
CREATE OR REPLACE FUNCTION complaint_event_data(p_complaint bigint) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
           'complaint_id', c.id, 'ref_id', o.ref_id, 'invoice', o.invoice, 'order_item_id', c.order_line_id::text,
           'reason', c.reason, 'status', c.status, 'resolution', c.resolution, 'refunded_amount', c.refunded_amount,
           'last_message', (SELECT jsonb_build_object('author', CASE WHEN m.author = 'reseller' THEN 'reseller' ELSE 'operator' END,
                                                      'message', m.body, 'created_at', m.created_at)
                              FROM complaint_messages m WHERE m.complaint_id = c.id ORDER BY m.id DESC LIMIT 1),
           'updated_at', c.updated_at)
    FROM complaints c JOIN orders o ON o.id = c.order_id
   WHERE c.id = p_complaint
$$;

-- The complaint.updated event of a complaint as the caller's transaction left it, in the outbox (the
-- payload built now: retries and redeliveries send this state).
CREATE OR REPLACE FUNCTION announce_complaint(p_complaint bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO outbox_events (account_id, events, order_id, order_line_id, complaint_id, payload)
  SELECT c.account_id, ARRAY['complaint.updated'], c.order_id, c.order_line_id, c.id, complaint_event_data(c.id)
    FROM complaints c WHERE c.id = p_complaint
$$;

-- One step on a complaint: its message in the thread, its new status (and resolution, which closes
-- it), its event. The caller holds the complaint's row and checked the step is allowed.
CREATE OR REPLACE FUNCTION record_complaint_step(p_complaint bigint, p_author text, p_author_name text, p_action text, p_body text,
                                                 p_status text, p_resolution text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO complaint_messages (complaint_id, author, author_name, action, body)
  VALUES (p_complaint, p_author, coalesce(p_author_name, ''), p_action, p_body);
  UPDATE complaints
     SET status = p_status, resolution = p_resolution, updated_at = clock_timestamp(),
         closed_at = CASE WHEN p_status = 'closed' THEN clock_timestamp() END
   WHERE id = p_complaint;
  PERFORM announce_complaint(p_complaint);
END
$$;

-- Refunds a complaint's line (docs/design.md §14): exactly once (the complaint closes, the line turns
-- `refunded`, and the ledger keys the entry by the complaint), what is left of the line's recorded
-- subtotal, only for a line in a final state; the order's status stays, the leaderboard loses the
-- amount. The amount refunded (0 when nothing was left).
CREATE OR REPLACE FUNCTION refund_complaint(p_complaint bigint, p_author_name text, p_body text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_amount bigint;
BEGIN
  SELECT order_id INTO v FROM complaints WHERE id = p_complaint;
  IF NOT FOUND THEN PERFORM raise_app('COMPLAINT_NOT_FOUND'); END IF;
  PERFORM lock_orders(ARRAY[v.order_id]);
  SELECT c.id, c.status, c.order_line_id, o.id AS order_id, o.account_id, o.invoice INTO v
    FROM complaints c JOIN orders o ON o.id = c.order_id WHERE c.id = p_complaint FOR NO KEY UPDATE OF c;
  IF v.status = 'closed' THEN PERFORM raise_app('COMPLAINT_NOT_ALLOWED', 'complaint', 'The complaint is closed already.'); END IF;
  v_amount := refund_final_line(v.order_line_id);
  IF v_amount IS NULL THEN
    PERFORM raise_app('COMPLAINT_NOT_ALLOWED', 'order_item_id',
                      'The line is still in flight upstream, canceled or refunded already: refund it once it is final.');
  END IF;
  PERFORM credit_line_refund(v.account_id, v.order_id, v.invoice, v.order_line_id, v_amount, 'complaint ' || p_complaint,
                             'complaint:' || p_complaint);
  IF v_amount > 0 THEN PERFORM leaderboard_take_back(v.order_id, v_amount); END IF;
  UPDATE complaints SET refunded_amount = v_amount WHERE id = p_complaint;
  PERFORM record_complaint_step(p_complaint, 'operator', p_author_name, 'refund',
                                coalesce(nullif(p_body, ''), 'Refunded ' || v_amount || '.'), 'closed', 'refunded');
  RETURN v_amount;
END
$$;
