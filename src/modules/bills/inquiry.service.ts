import type { Database } from '../../db/database.js'
import type { BillDetail, Item } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { inquireBill } from '../../providers/digiflazz-postpaid.js'
import type { Vault } from '../../vault.js'
import { refuseUnsellable } from '../catalog/index.js'
import { loadProviderAccount } from '../fulfilment/index.js'
import { newInvoice } from '../refids/index.js'
import { billFloorOf, insertInquiry, providerKindOf } from './bills.queries.js'
import type { BillInquiryBody, BillInquiryData } from './bills.schemas.js'

export type InquiryDeps = { db: Database; vault: Vault; fulfillable: readonly string[]; providerTimeoutMs: number }

const MONEY_MAX = 1e15

const providerCannot = () =>
  new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE', { fieldErrors: { item_id: ['the provider cannot take this bill now: try again later'] } })

/** The item as a bill: sellable (refuse_unsellable), postpaid, at a Digiflazz provider that will sign a request. */
async function postpaidItem(
  deps: InquiryDeps,
  itemId: number,
  accountId: number,
): Promise<Item & { provider: string; provider_code: string }> {
  const item = await refuseUnsellable(deps.db, itemId, 1, deps.fulfillable, accountId)
  if (item.order_process !== 'h2h' || item.provider_meta?.postpaid !== true)
    throw invalidField('item_id', 'is not a postpaid item: buy it through POST /api/v1/trx')
  const provider = item.provider ? await providerKindOf(deps.db, item.provider) : undefined
  if (provider?.kind !== 'digiflazz' || !item.provider_code?.trim()) throw providerCannot()
  return item as Item & { provider: string; provider_code: string }
}

export function inquiryView(row: Awaited<ReturnType<typeof insertInquiry>>): BillInquiryData {
  return {
    inquiry_id: row.id,
    item_id: row.item_id,
    customer_id: row.customer_no,
    customer_name: row.customer_name,
    period: row.period,
    bill_count: row.bill_count,
    bill_amount: row.bill_amount,
    admin_fee: row.admin_fee,
    penalty: row.penalty,
    amount: row.amount,
    expires_at: row.expires_at,
    details: row.details,
  }
}

/**
 * POST /v1/trx/tagihan/inquiry (docs/design.md §5c): asks the provider for the customer's bill (inq-pasca
 * under a ref of our own, which the payment reuses) and keeps it 15 minutes for this account.
 * Our admin fee is the item's price per bill at the account's level (docs/design.md §5d); the balance will be
 * charged bill + late fee + it.
 */
export async function askBill(deps: InquiryDeps, accountId: number, body: BillInquiryBody) {
  const customerNo = body.customer_id.trim()
  if (!customerNo) throw invalidField('customer_id', 'must not be blank: send the customer number on the bill')
  const item = await postpaidItem(deps, body.item_id, accountId)
  const account = await loadProviderAccount(deps.db, deps.vault, item.provider)
  if (!account) throw providerCannot()
  const upstreamRef = newInvoice('INQ')
  const answer = await inquireBill(account, { sku: item.provider_code, customerNo, refId: upstreamRef }, deps.providerTimeoutMs)
  switch (answer.kind) {
    case 'unavailable':
      throw new AppError('SERVICE_UNAVAILABLE', { detail: `bill inquiry: ${answer.reason}` })
    case 'refused':
      throw providerCannot()
    case 'no_bill':
      throw new AppError('BILL_NOT_AVAILABLE', {
        fieldErrors: { customer_id: [`has no bill to pay now (${answer.message}): it is paid already, or not issued yet`] },
      })
    case 'wrong_customer':
      throw invalidField('customer_id', `is not a customer number this provider knows (${answer.message}): check it`)
  }
  const details: BillDetail[] = answer.periods.map((p) => ({
    period: p.period,
    bill_amount: p.billAmount,
    admin: item.price,
    penalty: p.penalty,
  }))
  const amount = details.reduce((sum, d) => sum + d.bill_amount + d.admin + d.penalty, 0)
  if (amount > MONEY_MAX) throw invalidField('customer_id', `has bills of more than ${MONEY_MAX}, more than one transaction may carry`)
  // The floor (docs/design.md §11c): the supplier's price is the bill's cost; a bill that would not keep the
  // margin is stored refused (Margin watch lists it) and never payable.
  const floor = await billFloorOf(deps.db, item.id)
  const floorRefused = !floor.allow_loss && amount < answer.providerPrice + Number(floor.margin)
  const row = await insertInquiry(deps.db, {
    accountId,
    itemId: item.id,
    customerNo,
    upstreamRef,
    customerName: answer.customerName,
    details,
    providerPrice: answer.providerPrice,
    floorRefused,
  })
  if (floorRefused)
    throw new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE', {
      fieldErrors: {
        item_id: [
          'the provider charges more for this bill than this item may take for it: it cannot be paid now; try again later or ask the store',
        ],
      },
    })
  return inquiryView(row)
}
