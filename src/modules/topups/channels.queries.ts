import { sql } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { PaymentChannel } from '../../db/schema.js'
import type { GatewayChannel } from './payment-gateway.js'

/** A channel's columns as written: what a gateway lists for one, and a bank channel's account. */
export type ChannelColumns = GatewayChannel & BankAccount
export type BankAccount = { bank?: string | null; account_number?: string | null; account_name?: string | null }

export function channelRows(db: Database): Promise<PaymentChannel[]> {
  return db.selectFrom('payment_channels').selectAll().orderBy('code').execute()
}

export function channelByCode(db: Database, code: string): Promise<PaymentChannel | undefined> {
  return db.selectFrom('payment_channels').selectAll().where('code', '=', code).executeTakeFirst()
}

/** A new channel; nothing when its code exists. */
export function insertChannel(db: Database, values: ChannelColumns): Promise<PaymentChannel | undefined> {
  return db
    .insertInto('payment_channels')
    .values(values)
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst()
}

/** The channel's range, its row locked (FOR NO KEY UPDATE) until the transaction ends. */
export function lockChannelRange(trx: Trx, code: string) {
  return trx
    .selectFrom('payment_channels')
    .select(['min_amount', 'max_amount', 'type', 'bank', 'account_number', 'account_name'])
    .where('code', '=', code)
    .forNoKeyUpdate()
    .executeTakeFirst()
}

/** Sets the given columns of the channel. */
export function updateChannelColumns(trx: Trx, code: string, changes: Partial<Omit<ChannelColumns, 'code'>>): Promise<PaymentChannel> {
  const { name, type, fee_flat, fee_percent, min_amount, max_amount, active, bank, account_number, account_name } = changes
  return trx
    .updateTable('payment_channels')
    .set({ name, type, fee_flat, fee_percent, min_amount, max_amount, active, bank, account_number, account_name, updated_at: sql`now()` })
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Adds the gateway's channel, or gives a known one the gateway's terms (on/off stays the operator's); whether it was new. */
export async function upsertGatewayChannel(trx: Trx, values: ChannelColumns): Promise<boolean> {
  const row = await trx
    .insertInto('payment_channels')
    .values(values)
    .onConflict((oc) =>
      // A known channel takes the gateway's terms; on/off stays the operator's.
      oc.column('code').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        type: eb.ref('excluded.type'),
        fee_flat: eb.ref('excluded.fee_flat'),
        fee_percent: eb.ref('excluded.fee_percent'),
        min_amount: eb.ref('excluded.min_amount'),
        max_amount: eb.ref('excluded.max_amount'),
        updated_at: sql`now()`,
      })),
    )
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .executeTakeFirstOrThrow()
  return row.inserted
}
