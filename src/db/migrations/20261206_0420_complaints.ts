import { sql, type Kysely } from 'kysely'

// Complaints (docs/design.md §14): a reseller's report on one order line, its thread, and what an
// operator did about it. The outbox carries a complaint's event with its payload built in the
// transaction that changed it; a complaint's refund is a second `refund` entry of its line, keyed by
// the complaint (the settlement's stays one per line); a license a resend replaced is `void`.
const MONEY_MAX = '1000000000000000'
const statements = [
  `CREATE TABLE complaints (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    order_id bigint NOT NULL REFERENCES orders(id),
    order_line_id bigint NOT NULL REFERENCES order_lines(id),
    reason text NOT NULL CHECK (reason IN ('not_received', 'wrong_item', 'invalid_code', 'other')),
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
    resolution text CHECK (resolution IN ('refunded', 'resent', 'rejected', 'resolved')),
    refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= ${MONEY_MAX}),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz,
    CHECK ((status = 'closed') = (resolution IS NOT NULL AND closed_at IS NOT NULL)),
    CHECK (refunded_amount = 0 OR resolution = 'refunded')
  )`,
  // One complaint at a time per line, whatever races.
  `CREATE UNIQUE INDEX complaints_line_open_uq ON complaints (order_line_id) WHERE status <> 'closed'`,
  `CREATE INDEX complaints_line_idx ON complaints (order_line_id, id)`,
  `CREATE INDEX complaints_account_idx ON complaints (account_id, id DESC)`,
  `CREATE INDEX complaints_account_status_idx ON complaints (account_id, status, id DESC)`,
  `CREATE INDEX complaints_order_idx ON complaints (order_id, id)`,
  // The operator's queue: not closed, oldest first.
  `CREATE INDEX complaints_queue_idx ON complaints (created_at, id) WHERE status <> 'closed'`,
  `CREATE INDEX complaints_status_idx ON complaints (status, id DESC)`,
  `CREATE TABLE complaint_messages (
    id bigserial PRIMARY KEY,
    complaint_id bigint NOT NULL REFERENCES complaints(id),
    author text NOT NULL CHECK (author IN ('reseller', 'operator', 'system')),
    -- Who wrote it, for operators' eyes (the API key's account, a dashboard user's email, an operator's name).
    author_name text NOT NULL DEFAULT '',
    -- What the message came with: open, message, reply, resend, recheck, refund, reject.
    action text NOT NULL CHECK (action IN ('open', 'message', 'reply', 'resend', 'recheck', 'refund', 'reject')),
    body text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX complaint_messages_complaint_idx ON complaint_messages (complaint_id, id)`,
  `CREATE TRIGGER complaints_audit AFTER INSERT OR UPDATE OR DELETE ON complaints FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('id')`,
  `CREATE TRIGGER complaint_messages_audit AFTER INSERT OR UPDATE OR DELETE ON complaint_messages FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('id')`,
  // A complaint's event carries the complaint as of its change (the relay stores it on the delivery).
  `ALTER TABLE outbox_events ADD COLUMN complaint_id bigint, ADD COLUMN payload jsonb`,
  `ALTER TABLE webhook_deliveries ADD COLUMN complaint_id bigint`,
  `CREATE INDEX webhook_deliveries_complaint_idx ON webhook_deliveries (complaint_id) WHERE complaint_id IS NOT NULL`,
  // A line's refunds: the settlement's (no reference) once, and each complaint's once.
  `CREATE UNIQUE INDEX ledger_entries_line_refund_uq ON ledger_entries (order_line_id, coalesce(reference, '')) WHERE type = 'refund'`,
  `DROP INDEX ledger_entries_refund_uq`,
  `ALTER DOMAIN license_status DROP CONSTRAINT license_status_known`,
  `ALTER DOMAIN license_status ADD CONSTRAINT license_status_known CHECK (VALUE IN ('available', 'sold', 'void'))`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
