import { batchedRead } from '../../db/batched-read.js'
import { isDatabaseUnavailable, type PreparedStatement } from '../../db/database.js'
import { AppError } from '../../errors.js'

/** What polled reads need from the account row: the balance and the versions of its two lists. */
export type AccountCounters = { balance: number; ledger_count: number; orders_count: number; order_settles: number }
export type AccountCountersReader = (accountId: number) => Promise<AccountCounters>

// order_settles lives apart from the account row (account_order_settles): an account without a row counts 0.
const READ = `SELECT a.id, a.balance, a.ledger_count, a.orders_count,
                     coalesce((SELECT s.settles FROM account_order_settles s WHERE s.account_id = a.id), 0) AS order_settles
                FROM accounts a WHERE a.id = ANY($1::int8[])`

/** `/balance` and the kept list pages' version checks: the accounts asked for in one event-loop turn, one statement. */
export function accountCountersReader(prepared: PreparedStatement): AccountCountersReader {
  const read = batchedRead(
    async (ids: number[]) => {
      const rows = await prepared<AccountCounters & { id: number }>('account_counters', READ, [ids])
      return new Map(rows.map(({ id, ...counters }) => [id, counters]))
    },
    { sharedFailure: isDatabaseUnavailable },
  )
  return async (accountId) => {
    const counters = await read(accountId)
    // Authenticated a moment ago from the cache, gone now: its key no longer opens anything.
    if (!counters) throw new AppError('INVALID_API_KEY')
    return counters
  }
}
