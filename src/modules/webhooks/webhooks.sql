-- The webhook module's database functions (docs/design.md §8).

-- The body of the statement trigger outbox_events_ring (migration 20261122_0030, which created a
-- first version: the trigger needs its function to exist). Wakes the delivery worker on commit.
-- NOTIFY serializes committing notifiers on one global lock (measured: purchases/s halved), so only
-- one transaction at a time rings; the rest are seen by the pass that bell starts or by the
-- worker's follow-up passes. The bell has a lock class of its own: one it shared with license
-- intake silenced purchases while licenses loaded, and made license loads wait for purchases.
CREATE OR REPLACE FUNCTION ring_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF pg_try_advisory_xact_lock(outbox_bell_lock_class(), 0) THEN PERFORM pg_notify('outbox', ''); END IF;
    RETURN NULL;
  END
$$;

-- The receiver host of a callback URL (host[:port], lower case): the key of the worker's bound on
-- attempts in flight to one host, which many accounts may share. A backslash ends the authority
-- as it does for a browser's URL parser.
CREATE OR REPLACE FUNCTION webhook_receiver_host(p_url text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(substring(p_url FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#\\@]*@)?([^/?#\\]+)'))
$$;

-- Keeps webhook_delivery_totals, each account's count of deliveries (the unfiltered list's total):
-- the statement triggers of migration 0540 on webhook_deliveries, so no writer (relay, test send,
-- retention) can forget it. One upsert per account per statement, accounts in ascending id: two
-- relays lock the same rows in the same order and never deadlock.
CREATE OR REPLACE FUNCTION count_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM webhook_delivery_totals;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO webhook_delivery_totals AS t (account_id, deliveries)
    SELECT account_id, count(*) FROM added GROUP BY account_id ORDER BY account_id
    ON CONFLICT (account_id) DO UPDATE SET deliveries = t.deliveries + EXCLUDED.deliveries;
  ELSE
    INSERT INTO webhook_delivery_totals AS t (account_id, deliveries)
    SELECT account_id, -count(*) FROM removed GROUP BY account_id ORDER BY account_id
    ON CONFLICT (account_id) DO UPDATE SET deliveries = t.deliveries + EXCLUDED.deliveries;
  END IF;
  RETURN NULL;
END
$$;
