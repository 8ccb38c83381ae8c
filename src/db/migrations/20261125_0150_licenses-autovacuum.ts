import { sql, type Kysely } from 'kysely'

// A sale leaves its license's entry dead at the head of the item's index of available licenses,
// where every later claim and stock count starts. At the default 20 % a 5M-license table gathers
// ~1M such entries before autovacuum comes; 1 % (and a fixed floor) bounds the walk.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE licenses SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
                                      autovacuum_analyze_scale_factor = 0.02)`.execute(db)
}
