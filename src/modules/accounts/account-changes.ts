import { sql } from 'kysely'
import type { AppContext } from '../../context.js'
import type { Trx } from '../../db/database.js'

const CHANNEL = 'account_changed'

/** Tells every process that an account's keys, status or allow-list changed (sent on commit). */
export async function announceAccountChange(trx: Trx, accountId: number): Promise<void> {
  await sql`SELECT pg_notify(${CHANNEL}, ${String(accountId)})`.execute(trx)
}

/**
 * A change of an account's keys, status or allow-list, then this process forgets the account at once
 * (the others hear it through the NOTIFY on commit): the operator API, the console and the dashboard alike.
 */
export async function forgettingAccount<T>(ctx: Pick<AppContext, 'authCache'>, accountId: number, change: Promise<T>): Promise<T> {
  const result = await change
  ctx.authCache.forgetAccount(accountId)
  return result
}

/** Keeps this process's auth cache in step with changes made by any process. */
export function watchAccountChanges(ctx: AppContext): Promise<() => Promise<void>> {
  return ctx.listen(
    CHANNEL,
    (payload) => ctx.authCache.forgetAccount(Number(payload)),
    () => ctx.authCache.clear(),
  )
}
