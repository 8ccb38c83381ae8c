import { sql, type Kysely } from 'kysely'

// docs/design.md §11: a voucher is unique in the whole store, not only within its item. Licenses already
// stocked in several items are reported in license_duplicates (and a warning), never deleted.
const statements = [
  `CREATE TABLE license_duplicates (
    license_id bigint PRIMARY KEY,
    item_id bigint NOT NULL,
    fingerprint text NOT NULL,
    status text NOT NULL,
    reported_at timestamptz NOT NULL DEFAULT now()
  )`,
  `INSERT INTO license_duplicates (license_id, item_id, fingerprint, status)
   SELECT id, item_id, fingerprint, status FROM licenses
    WHERE fingerprint IN (SELECT fingerprint FROM licenses GROUP BY fingerprint HAVING count(*) > 1)`,
  // Unique when clean; otherwise a plain index for the check addLicenses makes under its lock, so selling the rest goes on.
  `DO $$
  DECLARE
    n integer := (SELECT count(DISTINCT fingerprint) FROM license_duplicates);
  BEGIN
    IF n = 0 THEN
      CREATE UNIQUE INDEX licenses_fingerprint_uq ON licenses (fingerprint);
    ELSE
      CREATE INDEX licenses_fingerprint_idx ON licenses (fingerprint);
      RAISE WARNING '% vouchers are stocked in more than one item (table license_duplicates); nothing was deleted', n;
    END IF;
  END $$`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
