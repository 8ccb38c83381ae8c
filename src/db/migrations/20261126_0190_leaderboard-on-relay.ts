import { sql, type Kysely } from 'kysely'

// The leaderboard counts a completed order when its outbox row is relayed (leaderboard.sql), no
// longer inside the purchase: the flag marks the rows written to be counted so. Rows of older
// processes (a rolling deploy) carry false: their transaction counted the order itself, through
// leaderboard_add and leaderboard_count_order, which stay in the databases that have them until
// a later release drops them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE outbox_events ADD COLUMN leaderboard_counts boolean NOT NULL DEFAULT false`.execute(db)
}
