import { sql, type Kysely } from 'kysely'

// Webhook settings, deliveries and their attempts (docs/design.md §8).
const statements = [
  // Apart from accounts: the purchase updates the account row, which stays narrow.
  `CREATE TABLE webhook_settings (
    account_id bigint PRIMARY KEY REFERENCES accounts(id),
    callback_url text,
    webhook_enabled boolean NOT NULL DEFAULT false,
    secret_enc text,
    secret_created_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT webhook_enabled OR (callback_url IS NOT NULL AND secret_enc IS NOT NULL))
  )`,
  // One row per event to deliver; webhook_id is the same on every attempt (Standard Webhooks).
  // Few indexes: every claim and every result rewrites the row. The relay's row lock on the
  // outbox event makes one delivery per event; webhook_id is 128 random bits. No foreign keys:
  // the ids come from outbox rows that hold them already, and a key check would share-lock the
  // account row every purchase updates.
  `CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL,
    outbox_event_id bigint,
    event text NOT NULL,
    order_id bigint,
    order_line_id bigint,
    webhook_id text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
    -- Bumped by every claim and redelivery: an attempt's result only lands on the claim it was made for.
    claims integer NOT NULL DEFAULT 0,
    -- Consecutive failures in the current round of the retry schedule.
    failures integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (account_id, next_attempt_at) WHERE status IN ('pending', 'retrying')`,
  `CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, id DESC)`,
  `CREATE TABLE webhook_attempts (
    id bigserial PRIMARY KEY,
    delivery_id bigint NOT NULL REFERENCES webhook_deliveries(id),
    attempted_at timestamptz NOT NULL,
    status_code integer,
    duration_ms integer NOT NULL,
    error text
  )`,
  `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id)`,
  // Wakes the delivery worker on commit. NOTIFY serializes committing notifiers on one global lock
  // (measured: purchases/s halved), so only one transaction at a time rings; the rest are seen by
  // the pass that bell starts or the worker's follow-up pass.
  `CREATE FUNCTION ring_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_try_advisory_xact_lock(1922, 0) THEN PERFORM pg_notify('outbox', ''); END IF;
      RETURN NULL;
    END
  $$`,
  `CREATE TRIGGER outbox_events_ring AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION ring_outbox()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
