import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'
import type { OrderProcess, ProviderKind } from './catalog.js'

// The tables of orders, their lines, the ref_id registry, the outbox and upstream dispatches.
export const ORDER_STATUSES = ['pending', 'paid', 'completed', 'canceled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]
export type LineStatus = 'pending' | 'processing' | 'delivered' | 'sent' | 'refunded' | 'cancel_requested'

export interface RefIdsTable {
  account_id: number
  ref_id: string
  kind: 'order' | 'topup'
}

export interface OrdersTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  status: OrderStatus
  payment_method: Generated<string>
  price: number
  fees: Generated<number>
  amount: number
  lock_id: number | null
  cancel_reason: string | null
  created_at: Generated<Date>
  updated_at: Timestamp
  finished_at: Date | null
  /** The buyer's price level when it was bought (purchase()); NULL for orders before levels. */
  price_level_id: Generated<number | null>
}

export interface OrderLinesTable {
  id: Id
  order_id: number
  position: number
  item_id: number
  order_process: OrderProcess
  product_name: string
  variant_name: string
  quantity: number
  unit_price: number
  subtotal: number
  note: string | null
  status: LineStatus
  refunded_amount: Generated<number>
  stock_taken: Generated<number>
  delivery_enc: string | null
  delivery_note: string | null
  delivered_at: Date | null
  /** What the line cost us when bought (items.cost × quantity or provider units, rounded up); null when unknown. An upstream line's exact cost is its requests'. */
  cost: ColumnType<number | null, number | null | undefined, number | null>
}

export interface SandboxOrdersTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  item_id: number
  quantity: number
  price: number
  amount: number
  created_at: Generated<Date>
}

export interface OutboxEventsTable {
  id: Id
  account_id: number
  /** One delivery each, in this order (an order born completed: order.paid, order.completed). */
  events: string[]
  order_id: number | null
  order_line_id: number | null
  /** An order completed by this row's transaction: the relay counts it on the leaderboard (leaderboard.sql). */
  leaderboard_counts: Generated<boolean>
  /** A complaint.updated event's complaint, and the payload its change built (complaints.sql). */
  complaint_id: Generated<number | null>
  payload: Generated<Record<string, unknown> | null>
  created_at: Generated<Date>
}

export type DispatchStatus = 'queued' | 'sending' | 'pending' | 'completed' | 'failed' | 'review' | 'void'

export interface DispatchesTable {
  id: Id
  order_id: number
  order_line_id: number
  seq: number
  provider: string
  kind: ProviderKind
  upstream_ref: string
  provider_code: string
  target: string
  /** smm: the panel's comments and option; h2h open denomination: qty, the nominal sent upstream; a postpaid bill: postpaid. */
  options: ColumnType<{ comments?: string; opt?: string; qty?: number; postpaid?: boolean }, string | undefined, string>
  quantity: number
  amount: number
  status: Generated<DispatchStatus>
  upstream_order_id: string | null
  upstream_status: string | null
  sn: string | null
  message: string | null
  start_count: number | null
  remains: number | null
  refund_amount: Generated<number>
  attempts: Generated<number>
  next_attempt_at: Timestamp
  first_sent_at: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
  finished_at: Date | null
  /** What this request costs us at its source (the supplier's price for its quantity or units); null when unknown. */
  cost: ColumnType<number | null, number | null | undefined, number | null>
  /** The request that failed definitely at an earlier source, which this one replaces (docs/design.md §11b failover). */
  failover_of: ColumnType<number | null, number | null | undefined, number | null>
  /** The most this request may cost us and keep the floor (docs/design.md §11c): its amount less the floor margin; null: no bound (the item allows a loss). */
  max_cost: ColumnType<number | null, number | null | undefined, number | null>
}
