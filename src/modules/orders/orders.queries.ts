import type { Database } from '../../db/database.js'
import type { Order, OrderLine, OrderStatus } from '../../db/schema.js'
import type { Vault } from '../../vault.js'
import { loadUpstreamResultsOf } from '../fulfilment/results.js'
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
export async function listOrders(db: Database, q: { accountId?: number; page: number; per_page: number; status?: OrderStatus }) {
  let query = db.selectFrom('orders')
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.status) query = query.where('status', '=', q.status)
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

type OrderDetailView = OrderDetail & { items: OrderLineView[] }

/** The full current state of an order as resellers, operators and webhooks see it (DESIGN §5). */
export async function loadOrderDetail(db: Database, vault: Vault, order: Order): Promise<OrderDetailView> {
  return (await loadOrderDetails(db, vault, [order])).get(order.id)!
}

/** Many orders' full state in three queries however many orders: the webhook worker's batches. */
export async function loadOrderDetails(db: Database, vault: Vault, orders: Order[]): Promise<Map<number, OrderDetailView>> {
  const orderIds = orders.map((o) => o.id)
  if (orderIds.length === 0) return new Map()
  const lines = await db
    .selectFrom('order_lines')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('position')
    .execute()
  const autoLineIds = lines.filter((l) => l.order_process === 'auto').map((l) => l.id)
  const [licenses, upstream] = await Promise.all([
    autoLineIds.length
      ? db.selectFrom('licenses').select(['order_line_id', 'content_enc']).where('order_line_id', 'in', autoLineIds).orderBy('id').execute()
      : [],
    loadUpstreamResultsOf(db, orderIds),
  ])
  const licensesOf = new Map<number, string[]>()
  for (const l of licenses) {
    const own = licensesOf.get(l.order_line_id!) ?? []
    own.push(vault.decrypt(l.content_enc))
    licensesOf.set(l.order_line_id!, own)
  }
  const linesOf = new Map<number, OrderLineView[]>(orderIds.map((id) => [id, []]))
  for (const line of lines) linesOf.get(line.order_id)!.push(lineView(line, licensesOf.get(line.id) ?? [], vault))
  return new Map(
    orders.map((order) => [
      order.id,
      {
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
        items: linesOf.get(order.id)!,
        ...upstream.get(order.id)!,
      },
    ]),
  )
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
