import { batchedRead } from '../../db/batched-read.js'
import { isDatabaseUnavailable, type PreparedStatement } from '../../db/database.js'
import { AppError } from '../../errors.js'

/** What polled reads need from the account row: the balance and the versions of its two lists. */
export type AccountCounters = { balance: number; ledger_count: number; orders_count: number; order_settles: number }
export type AccountCountersReader = (accountId: number) => Promise<AccountCounters>

const READ = 'SELECT id, balance, ledger_count, orders_count, order_settles FROM accounts WHERE id = ANY($1::int8[])'

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
