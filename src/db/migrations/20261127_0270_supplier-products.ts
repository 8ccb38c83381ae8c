import { sql, type Kysely } from 'kysely'

// docs/design.md §11b: each provider's price list as last read (supplier_products), every sync of it
// (supplier_syncs; one running per provider, the claim that keeps two processes from reading
// the same list at once), and what changed from one read to the next (supplier_changes).
const statements = [
  `CREATE TABLE supplier_syncs (
    id bigserial PRIMARY KEY,
    provider text NOT NULL REFERENCES providers(code),
    status text NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    total integer NOT NULL DEFAULT 0,
    skipped integer NOT NULL DEFAULT 0,
    new_count integer NOT NULL DEFAULT 0,
    price_count integer NOT NULL DEFAULT 0,
    status_count integer NOT NULL DEFAULT 0,
    gone_count integer NOT NULL DEFAULT 0,
    back_count integer NOT NULL DEFAULT 0,
    error text
  )`,
  `CREATE UNIQUE INDEX supplier_syncs_running_key ON supplier_syncs (provider) WHERE status = 'running'`,
  `CREATE INDEX supplier_syncs_provider_idx ON supplier_syncs (provider, id DESC)`,
  `CREATE TABLE supplier_products (
    provider text NOT NULL REFERENCES providers(code),
    code text NOT NULL,
    name text NOT NULL,
    category text NOT NULL,
    brand text NOT NULL,
    type text NOT NULL,
    price numeric NOT NULL CHECK (price >= 0),
    min_quantity bigint,
    max_quantity bigint,
    active boolean NOT NULL,
    unlimited_stock boolean NOT NULL,
    stock bigint,
    cut_off_start text,
    cut_off_end text,
    postpaid boolean NOT NULL,
    raw jsonb NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    gone_at timestamptz,
    PRIMARY KEY (provider, code)
  )`,
  `CREATE INDEX supplier_products_category_idx ON supplier_products (provider, category, brand)`,
  `CREATE TABLE supplier_changes (
    id bigserial PRIMARY KEY,
    provider text NOT NULL REFERENCES providers(code),
    code text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('new', 'price', 'status', 'gone', 'back')),
    old_value text,
    new_value text,
    at timestamptz NOT NULL,
    sync_id bigint NOT NULL REFERENCES supplier_syncs(id)
  )`,
  `CREATE INDEX supplier_changes_provider_idx ON supplier_changes (provider, id DESC)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
