import { inTransaction, type Database } from '../../db/database.js'
import { cancellableLines, creditRefunds, markCancelRequested, settleOrder, startCancel, withdrawLine } from '../orders/index.js'
import { withdrawUnsentRequests } from '../fulfilment/index.js'
import { settleLine } from './settlement.js'

/**
 * Operator cancel (docs/design.md §5): refunds every line not delivered yet; delivered lines stay. Upstream
 * requests never sent are voided and refunded; a line with a request at its provider turns
 * `cancel_requested` and is settled by the provider's final answer. A checkout flow: it changes the
 * order and its lines (orders) and voids the order's unsent requests (fulfilment).
 */
export async function cancelOrder(db: Database, orderId: number, reason: string) {
  return inTransaction(db, async (trx) => {
    const order = await startCancel(trx, orderId, reason)
    // Requests before lines, as the dispatcher claims them; item rows in ascending id, like a
    // purchase, and the account only after them: no deadlock.
    const atProvider = await withdrawUnsentRequests(trx, order.id)
    const refunds = []
    for (const line of await cancellableLines(trx, order.id)) {
      if (line.order_process === 'h2h' || line.order_process === 'smm') {
        if (atProvider.has(line.id)) await markCancelRequested(trx, line.id)
        const refund = await settleLine(trx, line.id)
        if (refund) refunds.push(refund)
        continue
      }
      const refund = await withdrawLine(trx, line)
      if (refund) refunds.push(refund)
    }
    await creditRefunds(trx, order, refunds, reason)
    return { id: order.id, status: await settleOrder(trx, order), refunded_lines: refunds.length }
  })
}
