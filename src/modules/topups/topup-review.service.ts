import { inTransaction, type Database } from '../../db/database.js'
import type { Topup } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { creditBalance } from '../ledger/index.js'
import { holdTopupForReview, resolveTopupInReview, topupStatusOf } from './topups.queries.js'
import { payTopup } from './topups.service.js'

// Statuses a gateway's PAID may still settle; a top-up an operator resolved is theirs for good.
const SETTLEABLE = ['pending', 'expired', 'failed'] as const

/** A gateway's paid total as a whole number of Rupiah, else null (missing, text, fraction, negative). */
function paidTotalOf(reported: unknown): number | null {
  return typeof reported === 'number' && Number.isSafeInteger(reported) && reported >= 0 ? reported : null
}

/**
 * A gateway's signed PAID (docs/design.md §7): the paid total equal to the top-up's total credits once, as
 * payTopup does; any other total, or none, credits nothing and leaves the top-up in `review` for an
 * operator. A top-up already paid, in review or resolved stays as it is (a repeat answers the same).
 */
export async function recordGatewayPaid(db: Database, topup: Topup, reported: unknown): Promise<{ review: boolean; credited: boolean }> {
  const paidTotal = paidTotalOf(reported)
  if (paidTotal === topup.total) {
    const { credited } = await payTopup(db, topup.reference, 'tripay')
    return { review: false, credited }
  }
  const shown = reported === undefined ? 'no total_amount' : `total_amount ${JSON.stringify(reported).slice(0, 60)}`
  const held = await holdTopupForReview(db, topup, {
    paidTotal,
    reason: `${topup.gateway} reported PAID with ${shown}; the top-up's total is ${topup.total}`,
    settleable: SETTLEABLE,
  })
  return { review: held !== undefined, credited: false }
}

/** `requested`: the top-up's own amount, read under the same conditional update (the console's first choice). */
export type Resolution = { credit_amount: number | 'requested'; reason: string }

/**
 * An operator's decision on a top-up in review: credit `credit_amount` (paid) or nothing (0: failed),
 * exactly once. The conditional update and the ledger credit share one transaction, so a second
 * resolve finds it no longer in review (409), and the ledger's unique (topup_id) index guards the rest.
 */
export async function resolveTopup(db: Database, reference: string, r: Resolution) {
  const reason = r.reason.trim()
  if (!reason) throw invalidField('reason', 'must say why (it is kept with the top-up)')
  const credited = r.credit_amount === 'requested' || r.credit_amount > 0
  return inTransaction(db, async (trx) => {
    const resolved = await resolveTopupInReview(trx, reference, { credited, credit: r.credit_amount, reason })
    if (!resolved) {
      const current = await topupStatusOf(trx, reference)
      if (!current) throw new AppError('TOPUP_NOT_FOUND')
      throw new AppError('INVALID_STATE', { fieldErrors: { reference: [`the top-up is ${current.status}, not in review`] } })
    }
    if (credited) {
      await creditBalance(trx, {
        accountId: resolved.account_id,
        type: 'topup',
        amount: resolved.credited_amount!,
        description: `Top-up ${resolved.invoice} via ${resolved.channel}, resolved: ${reason}`.slice(0, 500),
        invoice: resolved.invoice,
        topupId: resolved.id,
      }).catch((error: unknown) => {
        // The ledger names its own `amount`: here it is the operator's credit_amount.
        const sentence = error instanceof AppError ? error.fieldErrors?.amount?.[0] : undefined
        throw sentence ? invalidField('credit_amount', sentence) : error
      })
    }
    return resolved
  })
}
