import { sql, type Kysely } from 'kysely'

// The catalog's clock moved by the database on the supplier side too (docs/design.md §5b): a supplier
// product switched off or on, gone or back changes whether its items' sources serve, and a new MIN_MARGIN
// the floor of the items it covers. Row triggers with WHEN: a price list's upsert touches every listed
// product, and only the few whose state moved call catalog_rows_changed() (catalog/catalog-clock.sql).
const statements = [
  `CREATE TRIGGER supplier_products_catalog_change AFTER UPDATE OF active, gone_at ON supplier_products FOR EACH ROW
    WHEN (OLD.active IS DISTINCT FROM NEW.active OR OLD.gone_at IS DISTINCT FROM NEW.gone_at) EXECUTE FUNCTION catalog_rows_changed()`,
  `CREATE TRIGGER margin_settings_catalog_change AFTER UPDATE OF min_margin ON margin_settings FOR EACH ROW
    WHEN (OLD.min_margin IS DISTINCT FROM NEW.min_margin) EXECUTE FUNCTION catalog_rows_changed()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
