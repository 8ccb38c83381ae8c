import { inTransaction, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { resendLineLicenses } from '../catalog/index.js'
import { lockOrder, resendLine } from '../orders/index.js'
import { recordStep } from './complaints.queries.js'
import { findComplaintTarget, type ComplaintTarget } from './operator.queries.js'
import { getOperatorComplaint, lockOpenComplaint, refuseClosed } from './operator.service.js'
import type { Sla } from './operator.view.js'

/** auto: a license from the item's stock in place of the line's; manual: the replacement typed (and a note). */
export type Resend = { mode: 'auto' } | { mode: 'manual'; product_license: string; note?: string }

// A resend delivers a line again: only one that was delivered (not in flight, canceled or refunded).
const RESENDABLE = new Set(['delivered', 'sent'])

function refuseUnresendable(t: ComplaintTarget, resend: Resend): void {
  if (!RESENDABLE.has(t.line_status)) {
    throw new AppError('COMPLAINT_NOT_ALLOWED', {
      fieldErrors: { order_item_id: [`the line is ${t.line_status}: only a delivered or sent line is resent`] },
    })
  }
  if (resend.mode === 'auto' && t.order_process !== 'auto') {
    throw new AppError('COMPLAINT_NOT_ALLOWED', {
      fieldErrors: { mode: [`a ${t.order_process} line has no licenses in stock: resend with mode manual and the replacement typed`] },
    })
  }
}

/**
 * POST /complaints/{id}/resend (docs/design.md §14): in one transaction, the order held (orders before
 * items before the complaint), an auto line's licenses void and new ones sold to it (auto) or the typed
 * replacement sealed (manual), order.item.sent in the outbox, and the complaint closed `resent`.
 * The thread never carries the license itself: the reseller reads it in the transaction.
 */
export async function resendComplaint(db: Database, vault: Vault, sla: Sla, id: number, resend: Resend, operatorName: string) {
  const before = await findComplaintTarget(db, id)
  if (!before) throw new AppError('COMPLAINT_NOT_FOUND')
  refuseClosed(before)
  refuseUnresendable(before, resend)
  await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, before.order_id)
    // Read again under the order's lock: a refund may have taken the line since.
    const t = (await findComplaintTarget(trx, id))!
    refuseUnresendable(t, resend)
    if (t.order_process === 'auto') await resendLineLicenses(trx, t.item_id, t.line_id, resend.mode === 'auto' ? t.quantity : 0)
    await resendLine(trx, vault, order, t.line_id, resend.mode === 'manual' ? resend : null)
    await lockOpenComplaint(trx, id)
    const said = resend.mode === 'manual' && resend.note ? `: ${resend.note}` : '.'
    await recordStep(trx, id, {
      author: 'operator',
      authorName: operatorName,
      action: 'resend',
      body: `A replacement was sent; read it in the transaction${said}`.slice(0, 2000),
      status: 'closed',
      resolution: 'resent',
    })
  })
  return getOperatorComplaint(db, sla, id)
}
