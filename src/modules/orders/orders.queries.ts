import type { Database } from '../../db/database.js'
import type { Order, OrderLine, OrderStatus } from '../../db/schema.js'
import type { Vault } from '../../vault.js'
import { loadUpstreamResults } from '../fulfilment/results.js'
import type { OrderDetail } from './orders.schemas.js'

const SUMMARY = ['id', 'invoice', 'ref_id', 'amount', 'status', 'created_at'] as const

export async function findOrderSummary(db: Database, accountId: number, refId: string) {
  return db.selectFrom('orders').select(SUMMARY).where('account_id', '=', accountId).where('ref_id', '=', refId).executeTakeFirst()
}

export async function findOrder(db: Database, orderId: number): Promise<Order | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst()
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

/** `ref`: a ref_id or invoice (exact); `awaiting: 'manual'`: orders with a manual line still to send. */
export type OrderListFilter = { accountId?: number; status?: OrderStatus; ref?: string; awaiting?: 'manual' }

/** Purchases newest first: one account's for a reseller, or every account's for an operator. */
export async function listOrders(db: Database, q: OrderListFilter & { page: number; per_page: number }) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
  if (q.ref) query = query.where((eb) => eb.or([eb('ref_id', '=', q.ref!), eb('invoice', '=', q.ref!)]))
  if (q.awaiting === 'manual')
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('order_lines as l')
          .select('l.id')
          .whereRef('l.order_id', '=', 'orders.id')
          .where('l.order_process', '=', 'manual')
          .where('l.status', '=', 'pending'),
      ),
    )
  const [rows, count] = await Promise.all([
    query
      .select([...SUMMARY, 'account_id'])
      .orderBy('id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
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
