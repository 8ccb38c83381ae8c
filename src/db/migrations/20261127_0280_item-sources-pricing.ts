import { sql, type Kysely } from 'kysely'

// docs/design.md §11b: the supplier products an item is bought from, by priority (item_sources), the
// pricing rules that turn a supplier's price into ours (pricing_rules), an item's cost and its
// manual price lock, and what each line and upstream request cost us (margin per order).
const statements = [
  `ALTER TABLE items ADD COLUMN cost numeric CHECK (cost >= 0)`,
  `ALTER TABLE items ADD COLUMN price_locked boolean NOT NULL DEFAULT false`,
  `CREATE TABLE item_sources (
    item_id bigint NOT NULL REFERENCES items(id),
    provider text NOT NULL REFERENCES providers(code),
    code text NOT NULL,
    priority integer NOT NULL CHECK (priority BETWEEN 1 AND 1000),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, provider, code),
    UNIQUE (item_id, priority)
  )`,
  `CREATE INDEX item_sources_product_idx ON item_sources (provider, code)`,
  `CREATE TABLE pricing_rules (
    id bigserial PRIMARY KEY,
    scope text NOT NULL CHECK (scope IN ('provider', 'category', 'brand', 'item')),
    provider text REFERENCES providers(code),
    category text,
    brand text,
    item_id bigint REFERENCES items(id),
    percent numeric NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 1000),
    flat bigint NOT NULL DEFAULT 0 CHECK (flat BETWEEN 0 AND 1000000000),
    round_to integer NOT NULL DEFAULT 1 CHECK (round_to IN (1, 50, 100, 500, 1000)),
    min_margin bigint NOT NULL DEFAULT 0 CHECK (min_margin BETWEEN 0 AND 1000000000),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (scope <> 'provider' OR (provider IS NOT NULL AND category IS NULL AND brand IS NULL AND item_id IS NULL)),
    CHECK (scope <> 'category' OR (provider IS NOT NULL AND category IS NOT NULL AND brand IS NULL AND item_id IS NULL)),
    CHECK (scope <> 'brand' OR (provider IS NOT NULL AND brand IS NOT NULL AND item_id IS NULL)),
    CHECK (scope <> 'item' OR (item_id IS NOT NULL AND provider IS NULL AND category IS NULL AND brand IS NULL))
  )`,
  `CREATE UNIQUE INDEX pricing_rules_scope_key ON pricing_rules (scope, coalesce(provider, ''), coalesce(category, ''), coalesce(brand, ''), coalesce(item_id, 0))`,
  `ALTER TABLE order_lines ADD COLUMN cost bigint`,
  `ALTER TABLE dispatches ADD COLUMN cost bigint`,
  `ALTER TABLE dispatches ADD COLUMN failover_of bigint REFERENCES dispatches(id)`,
  `CREATE INDEX dispatches_failover_of_idx ON dispatches (failover_of) WHERE failover_of IS NOT NULL`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
