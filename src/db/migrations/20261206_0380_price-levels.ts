import { sql, type Kysely } from 'kysely'

// Price levels (docs/design.md §5d): one catalog at a price per reseller group. Each account has one
// level; each (item, level) has its stored price, kept by modules/price-levels/price-levels.sql when an
// item's price or product, a level or its rules change, so a purchase reads one row. A fresh install
// has one level, `reseller`, the default, whose prices are the items' own: nothing changes for an
// operator who never uses levels. Function bodies here are placeholders until that file is applied.
const statements = [
  `CREATE TABLE price_levels (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,32}$'),
    name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
    position integer NOT NULL DEFAULT 0,
    is_default boolean NOT NULL DEFAULT false,
    promote_at integer CHECK (promote_at BETWEEN 1 AND 100000000),
    promote_to bigint REFERENCES price_levels (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((promote_at IS NULL) = (promote_to IS NULL)),
    CHECK (promote_to <> id)
  )`,
  `CREATE UNIQUE INDEX price_levels_one_default ON price_levels (is_default) WHERE is_default`,
  `CREATE INDEX price_levels_promote_to_idx ON price_levels (promote_to) WHERE promote_to IS NOT NULL`,
  `INSERT INTO price_levels (code, name, position, is_default) VALUES ('reseller', 'Reseller', 0, true)`,

  // A level's markup over the item's price: item > brand (+ category) > brand > category > all.
  // brand: a product's name (imports name products by the supplier's brand), any case.
  `CREATE TABLE price_level_rules (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    level_id bigint NOT NULL REFERENCES price_levels (id) ON DELETE CASCADE,
    scope text NOT NULL CHECK (scope IN ('all', 'category', 'brand', 'item')),
    category_id bigint REFERENCES categories (id) ON DELETE CASCADE,
    brand text CHECK (length(btrim(brand)) BETWEEN 1 AND 100),
    item_id bigint REFERENCES items (id) ON DELETE CASCADE,
    percent numeric(9, 3) NOT NULL DEFAULT 0 CHECK (percent > -100 AND percent <= 10000),
    flat bigint NOT NULL DEFAULT 0 CHECK (flat BETWEEN -1000000000000000 AND 1000000000000000),
    round_to integer NOT NULL DEFAULT 1 CHECK (round_to IN (1, 50, 100, 500, 1000)),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (CASE scope WHEN 'all' THEN category_id IS NULL AND brand IS NULL AND item_id IS NULL
                      WHEN 'category' THEN category_id IS NOT NULL AND brand IS NULL AND item_id IS NULL
                      WHEN 'brand' THEN brand IS NOT NULL AND item_id IS NULL
                      ELSE item_id IS NOT NULL AND category_id IS NULL AND brand IS NULL END)
  )`,
  `CREATE UNIQUE INDEX price_level_rules_one_per_target ON price_level_rules
    (level_id, scope, coalesce(category_id, 0), lower(coalesce(brand, '')), coalesce(item_id, 0))`,
  `CREATE INDEX price_level_rules_item_idx ON price_level_rules (item_id) WHERE item_id IS NOT NULL`,
  `CREATE INDEX price_level_rules_category_idx ON price_level_rules (category_id) WHERE category_id IS NOT NULL`,

  // changed_at: when this level's price of the item last moved (catalog_change_time(): a delta cursor bounds it).
  `CREATE TABLE item_level_prices (
    item_id bigint NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    level_id bigint NOT NULL REFERENCES price_levels (id) ON DELETE CASCADE,
    price bigint NOT NULL CHECK (price BETWEEN 0 AND 1000000000000000),
    manual boolean NOT NULL DEFAULT false,
    rule_id bigint,
    changed_at timestamptz NOT NULL,
    PRIMARY KEY (item_id, level_id)
  )`,
  `CREATE INDEX item_level_prices_level_idx ON item_level_prices (level_id)`,

  `CREATE FUNCTION default_price_level() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT id FROM price_levels WHERE is_default $$`,
  `ALTER TABLE accounts ADD COLUMN price_level_id bigint REFERENCES price_levels (id)`,
  `ALTER TABLE accounts ADD COLUMN price_level_since timestamptz`,
  `UPDATE accounts SET price_level_id = default_price_level()`,
  `ALTER TABLE accounts ALTER COLUMN price_level_id SET DEFAULT default_price_level()`,
  `ALTER TABLE accounts ALTER COLUMN price_level_id SET NOT NULL`,
  `CREATE INDEX accounts_price_level_idx ON accounts (price_level_id)`,
  // The level an order was priced at (margin report by level); no foreign key on the purchase's insert.
  `ALTER TABLE orders ADD COLUMN price_level_id bigint`,
  // A move up is recorded once per account and level (docs/design.md §5d: never twice, never down by itself).
  `CREATE TABLE price_level_promotions (
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    from_level_id bigint NOT NULL REFERENCES price_levels (id) ON DELETE CASCADE,
    to_level_id bigint NOT NULL REFERENCES price_levels (id) ON DELETE CASCADE,
    month date NOT NULL,
    transactions integer NOT NULL,
    promoted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, from_level_id)
  )`,

  `CREATE FUNCTION level_prices_follow_item() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  `CREATE FUNCTION level_prices_follow_product() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  `CREATE FUNCTION account_level_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
  `CREATE TRIGGER items_level_prices_insert AFTER INSERT ON items REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION level_prices_follow_item()`,
  // A row trigger with WHEN: a sale's stock write (price unchanged) costs nothing. A writer of many
  // prices in one statement (a supplier's repricing) says it refreshes them itself, once, after it
  // (price_levels.refresh = 'after'): one set-based pass instead of one per row.
  `CREATE TRIGGER items_level_prices_update AFTER UPDATE OF price, product_id ON items FOR EACH ROW
    WHEN ((OLD.price IS DISTINCT FROM NEW.price OR OLD.product_id IS DISTINCT FROM NEW.product_id)
          AND current_setting('price_levels.refresh', true) IS DISTINCT FROM 'after')
    EXECUTE FUNCTION level_prices_follow_item()`,
  `CREATE TRIGGER products_level_prices_update AFTER UPDATE OF name, category_id ON products FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.category_id IS DISTINCT FROM NEW.category_id)
    EXECUTE FUNCTION level_prices_follow_product()`,
  `CREATE TRIGGER accounts_level_moved BEFORE UPDATE OF price_level_id ON accounts FOR EACH ROW
    WHEN (OLD.price_level_id IS DISTINCT FROM NEW.price_level_id) EXECUTE FUNCTION account_level_moved()`,

  // Audited like every operator-changed table (migration 20261206_0340); a level price only when set
  // or cleared by hand: a rule's recomputation writes thousands, and the rule's own row says why.
  ...Object.entries({ price_levels: 'id', price_level_rules: 'id' }).map(
    ([table, key]) =>
      `CREATE TRIGGER ${table}_audit AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW
        WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('${key}')`,
  ),
  `CREATE TRIGGER item_level_prices_audit AFTER UPDATE ON item_level_prices FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '' AND (OLD.manual OR NEW.manual)) EXECUTE FUNCTION audit_row('item_id,level_id')`,
  `CREATE TRIGGER price_level_promotions_audit AFTER INSERT ON price_level_promotions FOR EACH ROW
    WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('account_id,from_level_id')`,

  // The floor at a level's price: "a source serves" takes the price to hold the source to.
  `DROP FUNCTION IF EXISTS serving_sources(bigint, timestamptz)`,
  `DROP FUNCTION IF EXISTS item_source_states(bigint, timestamptz)`,
  `DROP FUNCTION IF EXISTS refuse_unsellable(bigint, bigint, bigint, text[], text)`,
  `DROP FUNCTION IF EXISTS plan_dispatches(bigint, bigint, integer, text, bigint, text, integer, bigint, text, jsonb, integer, text)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
  // Every item at every level (one, the default, on an existing install): its own price.
  await sql`INSERT INTO item_level_prices (item_id, level_id, price, changed_at)
            SELECT i.id, l.id, i.price, i.updated_at FROM items i CROSS JOIN price_levels l`.execute(db)
}
