import { sql, type Kysely } from 'kysely'

// Purchases, their lines, sandbox orders and the outbox (docs/design.md §5, §10). Tables only: purchase()
// and its helpers are repeatable SQL files (src/db/repeatable.ts).
const statements = [
  // One ref_id namespace per account, shared by purchases and top-ups; claimed first by a purchase.
  `CREATE TABLE ref_ids (
    account_id bigint NOT NULL REFERENCES accounts(id),
    ref_id text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('order', 'topup')),
    PRIMARY KEY (account_id, ref_id)
  )`,
  `CREATE TABLE orders (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    ref_id text NOT NULL,
    invoice text NOT NULL UNIQUE,
    status text NOT NULL CHECK (status IN ('pending', 'paid', 'completed', 'canceled')),
    payment_method text NOT NULL DEFAULT 'saldo',
    price bigint NOT NULL CHECK (price >= 0),
    fees bigint NOT NULL DEFAULT 0 CHECK (fees >= 0),
    amount bigint NOT NULL CHECK (amount = price + fees),
    lock_id bigint REFERENCES stock_locks(id),
    cancel_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    UNIQUE (account_id, ref_id)
  )`,
  `CREATE INDEX orders_account_idx ON orders (account_id, id DESC)`,
  `CREATE INDEX orders_open_idx ON orders (id) WHERE status = 'paid'`,
  `CREATE TABLE order_lines (
    id bigserial PRIMARY KEY,
    order_id bigint NOT NULL REFERENCES orders(id),
    position integer NOT NULL,
    item_id bigint NOT NULL REFERENCES items(id),
    order_process text NOT NULL,
    product_name text NOT NULL,
    variant_name text NOT NULL,
    quantity integer NOT NULL CHECK (quantity > 0),
    unit_price bigint NOT NULL CHECK (unit_price >= 0),
    subtotal bigint NOT NULL CHECK (subtotal = unit_price * quantity),
    note text,
    status text NOT NULL CHECK (status IN ('pending', 'processing', 'delivered', 'sent', 'refunded', 'cancel_requested')),
    refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= subtotal),
    stock_taken integer NOT NULL DEFAULT 0,
    delivery_enc text,
    delivery_note text,
    delivered_at timestamptz,
    UNIQUE (order_id, position)
  )`,
  `CREATE TABLE sandbox_orders (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    ref_id text NOT NULL,
    invoice text NOT NULL UNIQUE,
    item_id bigint NOT NULL REFERENCES items(id),
    quantity integer NOT NULL,
    price bigint NOT NULL,
    amount bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, ref_id)
  )`,
  // Every status change, written in the transaction that made it; webhooks are delivered from here.
  `CREATE TABLE outbox_events (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    event text NOT NULL,
    order_id bigint REFERENCES orders(id),
    order_line_id bigint REFERENCES order_lines(id),
    created_at timestamptz NOT NULL DEFAULT now(),
    processed_at timestamptz
  )`,
  `CREATE INDEX outbox_events_pending_idx ON outbox_events (id) WHERE processed_at IS NULL`,
  `CREATE INDEX outbox_events_order_idx ON outbox_events (order_id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
