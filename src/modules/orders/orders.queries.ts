import type { Database } from '../../db/database.js'
import type { Order, OrderLine, OrderStatus } from '../../db/schema.js'
import type { Vault } from '../../vault.js'
import { listPage, type PageWindow } from '../../http/paging.js'
import { loadUpstreamResults } from '../fulfilment/results.js'
import type { OrderDetail } from './orders.schemas.js'

const SUMMARY = ['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'] as const

export async function findOrderSummary(db: Database, accountId: number, refId: string) {
  return db.selectFrom('orders').select(SUMMARY).where('account_id', '=', accountId).where('ref_id', '=', refId).executeTakeFirst()
}

/** By ref_id or invoice, only within the caller's account. */
export async function findOrderByRef(db: Database, accountId: number, ref: string): Promise<Order | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('ref_id', '=', ref), eb('invoice', '=', ref)]))
    .orderBy('id')
    .executeTakeFirst()
}

/** Purchases newest first: one account's for a reseller, or every account's for an operator. */
export async function listOrders(db: Database, q: { accountId?: number; status?: OrderStatus }, w: PageWindow) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
  return listPage(db, query, query.select([...SUMMARY, 'account_id']), w)
}

/** The target a line was bought for: the note itself, or the `target` of a JSON note. */
export function targetOf(note: string | null): string | null {
  if (!note || !note.trimStart().startsWith('{')) return note
  try {
    const parsed = JSON.parse(note) as { target?: unknown }
    return typeof parsed.target === 'string' ? parsed.target : note
  } catch {
    return note
  }
}

export type OrderLineView = OrderDetail['items'][number] & { id: number }

/** The full current state of an order as resellers, operators and webhooks see it (DESIGN §5). */
export async function loadOrderDetail(db: Database, vault: Vault, order: Order): Promise<OrderDetail & { items: OrderLineView[] }> {
  const lines = await db.selectFrom('order_lines').selectAll().where('order_id', '=', order.id).orderBy('position').execute()
  const autoLineIds = lines.filter((l) => l.order_process === 'auto').map((l) => l.id)
  const licenses = autoLineIds.length
    ? await db
        .selectFrom('licenses')
        .select(['order_line_id', 'content_enc'])
        .where('order_line_id', 'in', autoLineIds)
        .orderBy('id')
        .execute()
    : []
  const { h2h_results, smm_results } = await loadUpstreamResults(db, order.id)
  const items = lines.map((line) =>
    lineView(
      line,
      licenses.filter((l) => l.order_line_id === line.id).map((l) => vault.decrypt(l.content_enc)),
      vault,
    ),
  )
  return {
    id: order.id,
    ref_id: order.ref_id,
    invoice: order.invoice,
    payment_method: order.payment_method,
    status: order.status,
    price: order.price,
    fees: order.fees,
    amount: order.amount,
    created_at: order.created_at,
    updated_at: order.updated_at,
    items,
    h2h_results,
    smm_results,
  }
}

function lineView(line: OrderLine, licenses: string[], vault: Vault): OrderLineView {
  const view: OrderLineView = {
    id: line.id,
    variant_id: line.item_id,
    variant_name: line.variant_name,
    product_name: line.product_name,
    quantity: line.quantity,
    price: line.unit_price,
    subtotal: line.subtotal,
    note: line.note,
    target: targetOf(line.note),
    order_process: line.order_process,
    status: line.status,
  }
  if (line.order_process === 'auto') {
    view.product_license = licenses.join('\n')
    view.licenses = licenses.map((product_license) => ({ product_license, note: null }))
  } else if (line.status === 'sent') {
    const license = line.delivery_enc ? vault.decrypt(line.delivery_enc) : ''
    view.product_license = license
    view.licenses = [{ product_license: license, note: line.delivery_note }]
  }
  return view
}
