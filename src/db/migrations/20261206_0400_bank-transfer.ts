import { sql, type Kysely } from 'kysely'

// Bank transfer with a unique code (docs/design.md §7b): a channel naming the operator's bank account,
// top-ups whose total carries a code, the mutations Moota pushes or a statement brings, and the
// reservation that keeps a total to one top-up per account number until 7 days after it expires.
const MONEY_MAX = '1000000000000000'
const statements = [
  `ALTER TABLE payment_channels DROP CONSTRAINT payment_channels_type_check`,
  `ALTER TABLE payment_channels ADD CONSTRAINT payment_channels_type_check
    CHECK (type IN ('qris', 'va', 'ewallet', 'retail', 'bank_transfer')) NOT VALID`,
  `ALTER TABLE payment_channels VALIDATE CONSTRAINT payment_channels_type_check`,
  `ALTER TABLE payment_channels ADD COLUMN bank text, ADD COLUMN account_number text, ADD COLUMN account_name text`,
  // A bank channel names the account the money goes to; the digits are what a mutation carries.
  `ALTER TABLE payment_channels ADD CONSTRAINT payment_channels_bank_account CHECK (
    type <> 'bank_transfer' OR (bank IS NOT NULL AND account_name IS NOT NULL AND account_number ~ '^[0-9]{4,30}$'))`,
  `ALTER TABLE topups DROP CONSTRAINT topups_gateway_check`,
  `ALTER TABLE topups ADD CONSTRAINT topups_gateway_check CHECK (gateway IN ('simulator', 'tripay', 'bank_transfer')) NOT VALID`,
  `ALTER TABLE topups VALIDATE CONSTRAINT topups_gateway_check`,
  // The code is part of the total and is credited; the account is copied so a channel edit moves no top-up.
  `ALTER TABLE topups ADD COLUMN unique_code integer CHECK (unique_code BETWEEN 1 AND 999),
    ADD COLUMN pay_bank text, ADD COLUMN pay_account_number text, ADD COLUMN pay_account_name text`,
  `ALTER TABLE topups DROP CONSTRAINT topups_check`,
  `ALTER TABLE topups ADD CONSTRAINT topups_total_check
    CHECK (total = amount + fee + coalesce(unique_code, 0) AND total <= ${MONEY_MAX}) NOT VALID`,
  `ALTER TABLE topups VALIDATE CONSTRAINT topups_total_check`,
  `ALTER TABLE topups ADD CONSTRAINT topups_bank_transfer_check CHECK (
    (gateway = 'bank_transfer') = (unique_code IS NOT NULL AND pay_account_number IS NOT NULL))`,
  // The matcher's lookup: a transfer's account and amount against bank top-ups not yet credited.
  `CREATE INDEX topups_bank_transfer_idx ON topups (pay_account_number, total) WHERE gateway = 'bank_transfer'`,
  // One row per (account number, total): a top-up takes it over only once the last holder's
  // reservation lapsed (ON CONFLICT … WHERE reserved_until <= now()), so two live top-ups never share one.
  `CREATE TABLE transfer_totals (
    account_number text NOT NULL,
    total bigint NOT NULL CHECK (total > 0 AND total <= ${MONEY_MAX}),
    topup_id bigint NOT NULL REFERENCES topups(id),
    reserved_until timestamptz NOT NULL,
    PRIMARY KEY (account_number, total)
  )`,
  `CREATE TABLE bank_mutations (
    id bigserial PRIMARY KEY,
    mutation_id text NOT NULL UNIQUE,
    source text NOT NULL CHECK (source IN ('moota', 'statement')),
    bank_id text,
    account_number text NOT NULL,
    amount bigint NOT NULL CHECK (amount >= 0 AND amount <= ${MONEY_MAX}),
    type text NOT NULL CHECK (type IN ('CR', 'DB')),
    description text NOT NULL DEFAULT '',
    date text,
    -- duplicate: its amount is the total of a top-up another mutation already credited (seen twice, or paid twice).
    status text NOT NULL DEFAULT 'unmatched' CHECK (status IN ('unmatched', 'matched', 'duplicate', 'ignored')),
    topup_id bigint REFERENCES topups(id),
    matched_by text CHECK (matched_by IN ('push', 'statement', 'operator')),
    matched_at timestamptz,
    credited_amount bigint CHECK (credited_amount > 0 AND credited_amount <= ${MONEY_MAX}),
    note text,
    raw jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'matched') = (matched_at IS NOT NULL AND topup_id IS NOT NULL AND credited_amount IS NOT NULL)),
    CHECK (status <> 'matched' OR type = 'CR')
  )`,
  // One top-up is credited by one mutation at most, whatever races.
  `CREATE UNIQUE INDEX bank_mutations_topup_uq ON bank_mutations (topup_id) WHERE status = 'matched'`,
  // The operator's queue first: unmatched credits, newest first.
  `CREATE INDEX bank_mutations_status_idx ON bank_mutations (status, id DESC)`,
  `CREATE INDEX bank_mutations_account_idx ON bank_mutations (account_number, amount)`,
  `CREATE TRIGGER bank_mutations_audit AFTER INSERT OR UPDATE OR DELETE ON bank_mutations FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('id')`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
