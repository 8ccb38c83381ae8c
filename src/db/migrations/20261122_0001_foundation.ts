import { sql, type Kysely } from 'kysely'

// Accounts, keys, the ledger and the catalog (docs/design.md §3, §5b, §7, §11, §12). Tables only: the
// functions are repeatable SQL files (src/db/repeatable.ts), applied after every versioned migration.
const statements = [
  `CREATE TABLE app_meta (key text PRIMARY KEY, value text NOT NULL)`,
  `CREATE TABLE accounts (
    id bigserial PRIMARY KEY,
    name text NOT NULL,
    email text,
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
    max_active_locks integer CHECK (max_active_locks >= 0),
    ip_allowlist text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE api_keys (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    key_hash text NOT NULL UNIQUE,
    key_prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
  )`,
  `CREATE INDEX api_keys_account_idx ON api_keys (account_id) WHERE revoked_at IS NULL`,
  `CREATE TABLE ledger_entries (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id),
    direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
    type text NOT NULL CHECK (type IN ('topup', 'purchase', 'refund', 'adjustment')),
    amount bigint NOT NULL CHECK (amount > 0),
    balance_before bigint NOT NULL,
    balance_after bigint NOT NULL CHECK (balance_after >= 0),
    description text NOT NULL DEFAULT '',
    invoice text,
    reference text,
    order_id bigint,
    order_line_id bigint,
    topup_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (balance_after = balance_before + CASE WHEN direction = 'credit' THEN amount ELSE -amount END)
  )`,
  `CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id DESC)`,
  `CREATE UNIQUE INDEX ledger_entries_reference_uq ON ledger_entries (account_id, reference) WHERE reference IS NOT NULL`,
  // A line is refunded at most once, whatever retries or races happen.
  `CREATE UNIQUE INDEX ledger_entries_refund_uq ON ledger_entries (order_line_id) WHERE type = 'refund'`,
  `CREATE TABLE categories (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    icon text,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE products (
    id bigserial PRIMARY KEY,
    category_id bigint NOT NULL REFERENCES categories(id),
    name text NOT NULL,
    image text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (category_id, name)
  )`,
  `CREATE TABLE providers (
    code text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('digiflazz', 'smm_panel')),
    base_url text NOT NULL,
    username text,
    api_key_enc text,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE items (
    id bigserial PRIMARY KEY,
    product_id bigint NOT NULL REFERENCES products(id),
    sku text NOT NULL UNIQUE,
    name text NOT NULL,
    price bigint NOT NULL CHECK (price >= 0),
    order_process text NOT NULL CHECK (order_process IN ('auto', 'h2h', 'smm', 'manual')),
    min_order integer NOT NULL DEFAULT 1 CHECK (min_order >= 1),
    max_order integer CHECK (max_order >= min_order),
    unlimited_stock boolean NOT NULL DEFAULT false,
    stock bigint NOT NULL DEFAULT 0 CHECK (stock >= 0),
    active boolean NOT NULL DEFAULT true,
    provider text REFERENCES providers(code),
    provider_code text,
    provider_meta jsonb NOT NULL DEFAULT '{}',
    required_fields jsonb,
    description text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT (order_process = 'auto' AND unlimited_stock))
  )`,
  `CREATE INDEX items_product_idx ON items (product_id)`,
  `CREATE TABLE licenses (
    id bigserial PRIMARY KEY,
    item_id bigint NOT NULL REFERENCES items(id),
    content_enc text NOT NULL,
    fingerprint text NOT NULL,
    status text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'sold')),
    order_line_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    sold_at timestamptz,
    UNIQUE (item_id, fingerprint)
  )`,
  `CREATE INDEX licenses_available_idx ON licenses (item_id, id) WHERE status = 'available'`,
  `CREATE INDEX licenses_line_idx ON licenses (order_line_id) WHERE order_line_id IS NOT NULL`,
  // A sale of an auto item is a catalog change without touching the (shared-locked) item row.
  `CREATE INDEX licenses_sold_idx ON licenses (item_id, sold_at) WHERE status = 'sold'`,
  `CREATE TABLE stock_locks (
    id bigserial PRIMARY KEY,
    token text NOT NULL UNIQUE,
    account_id bigint NOT NULL REFERENCES accounts(id),
    item_id bigint NOT NULL REFERENCES items(id),
    quantity integer NOT NULL CHECK (quantity > 0),
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'used', 'expired', 'released')),
    locked_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    expires_at timestamptz NOT NULL,
    finished_at timestamptz,
    order_id bigint
  )`,
  `CREATE INDEX stock_locks_item_active_idx ON stock_locks (item_id) INCLUDE (quantity, expires_at) WHERE status = 'active'`,
  `CREATE INDEX stock_locks_account_active_idx ON stock_locks (account_id) WHERE status = 'active'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
