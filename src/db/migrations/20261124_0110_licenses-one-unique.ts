import { sql, type Kysely } from 'kysely'

// A voucher is unique store-wide (licenses_fingerprint_uq, migration 0004), so UNIQUE (item_id,
// fingerprint) only repeated it, and every sale (a new license row version) paid for both: about
// 5 % of purchase()'s CPU under pgbench. Where 0004 found duplicates across items and made a plain
// index instead, the per-item constraint stays: it is then the only one in the database.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'licenses_fingerprint_uq' AND schemaname = current_schema()) THEN
        ALTER TABLE licenses DROP CONSTRAINT IF EXISTS licenses_item_id_fingerprint_key;
      END IF;
    END $$`.execute(db)
}
