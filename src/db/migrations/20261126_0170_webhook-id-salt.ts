import { sql, type Kysely } from 'kysely'

// A delivery's webhook-id is derived from its outbox event (md5 of this installation's salt, the
// event's id and its place in the event), not drawn at random: a relay lost in a database crash is
// relayed again under the same id, so receivers deduplicate it, and the worker's pool can commit
// without waiting for the flush. The salt keeps ids from counting the store's events.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('webhook_id_salt', replace(gen_random_uuid()::text, '-', ''))
            ON CONFLICT (key) DO NOTHING`.execute(db)
}
