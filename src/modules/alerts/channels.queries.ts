import { sql } from 'kysely'
import type { Trx } from '../../db/database.js'

/** The channels' row as a PUT changes it: every column, the webhook's secret still sealed. */
export type ChannelsColumns = {
  email_to: string | null
  telegram_chat_id: string | null
  webhook_url: string | null
  webhook_secret_enc: string | null
}

/** The one row, locked for the change (none yet: all unset, and the upsert below makes it). */
export async function lockChannels(trx: Trx): Promise<ChannelsColumns | undefined> {
  return trx
    .selectFrom('alert_channels')
    .select(['email_to', 'telegram_chat_id', 'webhook_url', 'webhook_secret_enc'])
    .forUpdate()
    .executeTakeFirst()
}

/** Writes the one row whole (id = true): made on the first PUT, replaced after. */
export async function saveChannels(trx: Trx, c: ChannelsColumns): Promise<void> {
  await trx
    .insertInto('alert_channels')
    .values({ id: true, ...c })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...c, updated_at: sql`now()` }))
    .execute()
}
