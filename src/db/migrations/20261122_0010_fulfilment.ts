import { sql, type Kysely } from 'kysely'

// Upstream fulfilment (docs/design.md §5): one dispatch row per provider request, written by purchase() in
// the purchase's transaction, claimed by workers with FOR UPDATE SKIP LOCKED and sent with no
// transaction open. upstream_ref is derived from the order line, so sending it again is a status
// check at the provider, never a second order.
const statements = [
  `CREATE TABLE dispatches (
    id bigserial PRIMARY KEY,
    order_id bigint NOT NULL REFERENCES orders(id),
    order_line_id bigint NOT NULL REFERENCES order_lines(id),
    seq integer NOT NULL CHECK (seq >= 0),
    provider text NOT NULL REFERENCES providers(code),
    kind text NOT NULL CHECK (kind IN ('digiflazz', 'smm_panel')),
    upstream_ref text NOT NULL UNIQUE,
    provider_code text NOT NULL,
    target text NOT NULL,
    options jsonb NOT NULL DEFAULT '{}',
    quantity integer NOT NULL CHECK (quantity > 0),
    amount bigint NOT NULL CHECK (amount >= 0),
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'pending', 'completed', 'failed', 'review', 'void')),
    upstream_order_id text,
    upstream_status text,
    sn text,
    message text,
    start_count bigint,
    remains bigint,
    refund_amount bigint NOT NULL DEFAULT 0 CHECK (refund_amount >= 0 AND refund_amount <= amount),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    first_sent_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    UNIQUE (order_line_id, seq)
  )`,
  // The workers' queue: only rows that still need a call (queued, pending) or a lease check (sending).
  `CREATE INDEX dispatches_due_idx ON dispatches (next_attempt_at) WHERE status IN ('queued', 'sending', 'pending')`,
  `CREATE INDEX dispatches_order_idx ON dispatches (order_id)`,
  `CREATE INDEX dispatches_review_idx ON dispatches (id) WHERE status = 'review'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
