import { sql, type Kysely } from 'kysely'

// docs/design.md §5c: a postpaid bill is asked for first (inq-pasca) and paid later with the same upstream
// ref_id. An inquiry belongs to one account, lives 15 minutes, and pays at most once: purchase()
// links it to the order line that paid it, under its row lock, and the dispatch of that line takes
// its upstream_ref (dispatches.upstream_ref is unique too). purchase() gains its inquiry argument:
// the old signature is dropped here and purchase.sql creates the new one (CREATE OR REPLACE cannot
// add an argument).
const statements = [
  `CREATE TABLE bill_inquiries (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    item_id bigint NOT NULL REFERENCES items(id),
    customer_no text NOT NULL,
    upstream_ref text NOT NULL UNIQUE,
    customer_name text NOT NULL,
    period text NOT NULL,
    bill_count integer NOT NULL CHECK (bill_count > 0),
    bill_amount bigint NOT NULL CHECK (bill_amount >= 0),
    penalty bigint NOT NULL CHECK (penalty >= 0),
    admin_fee bigint NOT NULL CHECK (admin_fee >= 0),
    amount bigint NOT NULL CHECK (amount >= 0 AND amount <= 1000000000000000 AND amount = bill_amount + penalty + admin_fee),
    details jsonb NOT NULL,
    provider_price bigint,
    expires_at timestamptz NOT NULL,
    order_line_id bigint REFERENCES order_lines(id),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX bill_inquiries_line_key ON bill_inquiries (order_line_id) WHERE order_line_id IS NOT NULL`,
  `DROP FUNCTION IF EXISTS purchase(bigint, text, text, bigint[], integer[], text[], text, text[])`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
