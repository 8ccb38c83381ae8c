-- The one place a balance changes: the account row and its ledger entry together (plpgsql, so plans
-- are cached). No row back: a debit would go below zero, or there is no such account. A credit
-- that would take the balance over money_max() is refused (422 on `amount`). The same update
-- counts the account's entries and, for a purchase's debit, its orders (unfiltered lists' totals).
CREATE OR REPLACE FUNCTION post_ledger_entry(p_account bigint, p_direction text, p_type text, p_amount bigint,
    p_description text, p_invoice text, p_reference text, p_order bigint, p_line bigint, p_topup bigint)
  RETURNS SETOF ledger_entries LANGUAGE plpgsql AS $$
DECLARE
  v_delta bigint := CASE WHEN p_direction = 'credit' THEN p_amount ELSE -p_amount END;
  v_balance bigint;
BEGIN
  UPDATE accounts SET balance = balance + v_delta, updated_at = now(), ledger_count = ledger_count + 1,
                      orders_count = orders_count + CASE WHEN p_type = 'purchase' THEN 1 ELSE 0 END
   WHERE id = p_account AND CASE WHEN p_direction = 'credit' THEN balance <= money_max() - p_amount ELSE balance >= p_amount END
  RETURNING balance INTO v_balance;
  IF NOT FOUND THEN
    IF p_direction = 'credit' AND EXISTS (SELECT 1 FROM accounts WHERE id = p_account) THEN
      PERFORM raise_app('VALIDATION_ERROR', 'amount', 'would take the balance over ' || money_max());
    END IF;
    RETURN;
  END IF;
  RETURN QUERY
    INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after,
                                description, invoice, reference, order_id, order_line_id, topup_id)
    VALUES (p_account, p_direction, p_type, p_amount, v_balance - v_delta, v_balance,
            coalesce(p_description, ''), p_invoice, p_reference, p_order, p_line, p_topup)
    RETURNING *;
END
$$;
