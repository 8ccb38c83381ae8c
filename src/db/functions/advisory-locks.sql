-- The advisory lock classes, in one place: the first key of pg_advisory_xact_lock(class, key).
--   1919  src/db/migrate.ts, while it applies the repeatable files (a constant there: it runs before this file exists)
--   1920  item_count_lock_class(): buyers of an item with active reservations count its stock one at a time
--   1921  item_gate_lock_class(): the fair per-item gate; buyers pass it shared, hold_item_exclusively exclusive
--   1922  license_intake_lock_class(): licenses are added one batch at a time, store-wide (a voucher is unique in the store)
--   1923  demo_seed_lock_class(): one process seeds the demo, the others then find the database not empty
--   1924  lock_ref_id(): a purchase or top-up claiming a ref_id holds it to commit (second key: a hash of account and ref_id)
--   1925  outbox_bell_lock_class(): one committing transaction at a time rings NOTIFY outbox (webhooks/webhooks.sql, try-lock only)
--   1926  dispatch_bell_lock_class(): one committing purchase at a time rings NOTIFY dispatch for the upstream worker (try-lock only)
--   1927  role_defaults_lock_class(): one starting process at a time stores the role's defaults (db/role-defaults.ts)
-- The second key of an item lock is item_lock_key(id).

CREATE OR REPLACE FUNCTION item_count_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1920 $$;

CREATE OR REPLACE FUNCTION item_gate_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1921 $$;

CREATE OR REPLACE FUNCTION item_lock_key(p_item bigint) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (p_item % 2147483647)::integer
$$;

CREATE OR REPLACE FUNCTION license_intake_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1922 $$;

CREATE OR REPLACE FUNCTION demo_seed_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1923 $$;

CREATE OR REPLACE FUNCTION outbox_bell_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1925 $$;

CREATE OR REPLACE FUNCTION dispatch_bell_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1926 $$;

CREATE OR REPLACE FUNCTION role_defaults_lock_class() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1927 $$;

-- Whoever claims a ref_id holds this until commit, then looks for an order or top-up with it: a
-- second claimant waits and then sees the first one's row (or a free ref_id if it rolled back).
CREATE OR REPLACE FUNCTION lock_ref_id(p_account bigint, p_ref text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1924, hashtext(p_account::text || ':' || p_ref))
$$;
