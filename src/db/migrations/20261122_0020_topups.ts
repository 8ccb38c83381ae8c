import { sql, type Kysely } from 'kysely'

// Top-ups (docs/design.md §7): the operator's payment channels and each top-up's payment link. A top-up's
// ref_id sits in the account's ref_ids registry beside purchases; its credit is one ledger entry.
const MONEY_MAX = '1000000000000000'
const statements = [
  `CREATE TABLE payment_channels (
    code text PRIMARY KEY,
    name text NOT NULL,
    type text NOT NULL CHECK (type IN ('qris', 'va', 'ewallet', 'retail')),
    fee_flat bigint NOT NULL DEFAULT 0 CHECK (fee_flat >= 0 AND fee_flat <= ${MONEY_MAX}),
    fee_percent numeric(6, 3) NOT NULL DEFAULT 0 CHECK (fee_percent >= 0 AND fee_percent <= 100),
    min_amount bigint NOT NULL DEFAULT 10000 CHECK (min_amount >= 10000),
    max_amount bigint NOT NULL DEFAULT 10000000 CHECK (max_amount >= min_amount AND max_amount <= ${MONEY_MAX}),
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE topups (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    ref_id text NOT NULL,
    invoice text NOT NULL UNIQUE,
    channel text NOT NULL REFERENCES payment_channels(code),
    gateway text NOT NULL CHECK (gateway IN ('simulator', 'tripay')),
    reference text NOT NULL UNIQUE,
    amount bigint NOT NULL CHECK (amount > 0 AND amount <= ${MONEY_MAX}),
    fee bigint NOT NULL CHECK (fee >= 0),
    total bigint NOT NULL CHECK (total = amount + fee AND total <= ${MONEY_MAX}),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'expired', 'failed')),
    gateway_status text,
    payment_url text NOT NULL,
    expires_at timestamptz NOT NULL,
    paid_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, ref_id)
  )`,
  `CREATE INDEX topups_account_idx ON topups (account_id, id DESC)`,
  `CREATE INDEX topups_pending_idx ON topups (expires_at) WHERE status = 'pending'`,
  // A top-up is credited at most once, whatever callbacks, clicks or operator calls race.
  `CREATE UNIQUE INDEX ledger_entries_topup_uq ON ledger_entries (topup_id) WHERE type = 'topup'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
