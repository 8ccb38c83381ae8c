import { sql, type Kysely } from 'kysely'

// The catalog's clock moved by the database (docs/design.md §5b): triggers on the tables the listing
// reads stamp the items a write changes and ring NOTIFY catalog_changed, in the write's own
// transaction, as outbox_events_ring does for the outbox. Their bodies are catalog/catalog-clock.sql's
// (these placeholders exist only until it is applied, right after the migrations). A sale's stock change
// stamps itself and rings nothing, as before: items' UPDATE trigger skips a write that sets updated_at,
// and sold licenses (an UPDATE) are not watched. Also the composite type of purchase()'s cart lines.
const statements = [
  `CREATE FUNCTION stamp_catalog_item() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
  `CREATE FUNCTION catalog_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  `CREATE TRIGGER items_catalog_stamp BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION stamp_catalog_item()`,
  `CREATE TRIGGER items_catalog_restamp BEFORE UPDATE ON items FOR EACH ROW
    WHEN (NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION stamp_catalog_item()`,
  `CREATE TRIGGER items_catalog_change AFTER DELETE ON items FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
  `CREATE TRIGGER products_catalog_change AFTER UPDATE ON products REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
  `CREATE TRIGGER categories_catalog_change AFTER UPDATE ON categories REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
  // As an operator's switch did before: whenever active (or kind) is written.
  `CREATE TRIGGER providers_catalog_change AFTER UPDATE OF active, kind ON providers FOR EACH ROW EXECUTE FUNCTION catalog_rows_changed()`,
  // A trigger with a transition table fires on one event: one each.
  ...['item_sources', 'licenses'].flatMap((table) => [
    `CREATE TRIGGER ${table}_catalog_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
    `CREATE TRIGGER ${table}_catalog_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
  ]),
  `CREATE TRIGGER item_sources_catalog_update AFTER UPDATE ON item_sources REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_rows_changed()`,
  // A purchase's cart line as its checks leave it (check_purchase_line, checkout/purchase-line.sql), which
  // purchase() carries from its checking loop to its writing loop: the note as stored, the upstream target
  // and options, an open denomination's provider units (NULL: one request per unit of quantity for h2h,
  // one order for smm) and what the line costs.
  `CREATE TYPE purchase_line AS (note text, target text, options jsonb, provider_qty integer, cost bigint)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
