import { sql, type Kysely } from 'kysely'

// Operator alerts (docs/design.md §11e): conditions that start and clear, each kept; the channels an
// owner sets; one delivery per (alert change, channel), written in the transaction of the change
// (an outbox) and retried on the webhooks' schedule.
const statements = [
  `CREATE TABLE alerts (
    id bigserial PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('supplier_balance_low', 'provider_failures', 'upstream_queue_stalled', 'webhook_failing',
                                       'topups_in_review', 'bank_mutations_unmatched', 'complaints_overdue')),
    -- What it is about: a provider's code, an account's id, or '' for the store as a whole.
    subject text NOT NULL DEFAULT '',
    message text NOT NULL CHECK (length(message) BETWEEN 1 AND 500),
    details jsonb NOT NULL DEFAULT '{}',
    started_at timestamptz NOT NULL DEFAULT now(),
    cleared_at timestamptz,
    CHECK (cleared_at IS NULL OR cleared_at >= started_at)
  )`,
  // One open alert per condition and subject: it fires once when it starts, once when it clears.
  `CREATE UNIQUE INDEX alerts_open_uq ON alerts (kind, subject) WHERE cleared_at IS NULL`,
  `CREATE INDEX alerts_kind_idx ON alerts (kind, id DESC)`,
  // The channels an owner sets (one row): where alerts go. The webhook's signing secret is sealed under APP_KEY.
  `CREATE TABLE alert_channels (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    email_to text CHECK (email_to IS NULL OR length(email_to) BETWEEN 3 AND 500),
    telegram_chat_id text CHECK (telegram_chat_id IS NULL OR telegram_chat_id ~ '^-?[0-9]{1,20}$|^@[A-Za-z0-9_]{5,32}$'),
    webhook_url text CHECK (webhook_url IS NULL OR length(webhook_url) BETWEEN 8 AND 2000),
    webhook_secret_enc text,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE alert_deliveries (
    id bigserial PRIMARY KEY,
    alert_id bigint NOT NULL REFERENCES alerts(id),
    event text NOT NULL CHECK (event IN ('started', 'cleared')),
    channel text NOT NULL CHECK (channel IN ('email', 'telegram', 'webhook')),
    -- Where it goes, as the channels said when the alert changed (an email address list, a chat id, a URL).
    target text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
    failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
    next_attempt_at timestamptz,
    -- Every attempt, oldest first: { attempted_at, ok, error, duration_ms }.
    attempts jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    UNIQUE (alert_id, event, channel)
  )`,
  `CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying')`,
  `CREATE INDEX alert_deliveries_alert_idx ON alert_deliveries (alert_id)`,
  `CREATE TRIGGER alert_channels_audit AFTER INSERT OR UPDATE OR DELETE ON alert_channels FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('id')`,
  // A provider's low-balance thresholds: under an amount (IDR), or under so many hours at the last 24 hours' rate.
  `ALTER TABLE providers ADD COLUMN balance_alert_below bigint CHECK (balance_alert_below >= 0 AND balance_alert_below <= 1000000000000000),
    ADD COLUMN balance_alert_hours numeric(8, 2) CHECK (balance_alert_hours > 0)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
