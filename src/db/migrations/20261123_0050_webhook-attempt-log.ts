import { sql, type Kysely } from 'kysely'

// Each delivery carries its attempts (oldest first) in its own row: recording an attempt is then
// one row update instead of an update plus an insert with two index entries (issue 9's speed).
const statements = [
  `ALTER TABLE webhook_deliveries ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]'`,
  // Times as the API answers them (ISO, UTC, milliseconds); attempts in the order they were made.
  `UPDATE webhook_deliveries d SET attempts = a.log
     FROM (SELECT delivery_id, jsonb_agg(jsonb_build_object(
             'attempted_at', to_char(attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'status_code', status_code, 'duration_ms', duration_ms, 'error', error) ORDER BY id) AS log
             FROM webhook_attempts GROUP BY delivery_id) a
    WHERE d.id = a.delivery_id`,
  `DROP TABLE webhook_attempts`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
