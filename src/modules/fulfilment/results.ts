import type { Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'

type ResultRow = Pick<
  Dispatch,
  'kind' | 'status' | 'sn' | 'message' | 'upstream_order_id' | 'upstream_status' | 'start_count' | 'remains' | 'quantity' | 'refund_amount'
> & { variant_id: number }

/** h2h: pending until a final answer; a request an operator cancel voided never reached the provider. */
function h2hResult(r: ResultRow) {
  const failed = r.status === 'failed' || r.status === 'void'
  const dispatch_status = r.status === 'completed' ? 'completed' : failed ? 'failed' : 'pending'
  const reason = r.status === 'void' ? 'canceled before it was sent' : r.message || 'failed'
  return {
    variant_id: r.variant_id,
    sn: r.status === 'completed' ? (r.sn ?? '') : failed ? `failed: ${reason}` : '',
    dispatch_status,
    log_message: r.status === 'void' ? reason : (r.message ?? ''),
  }
}

function smmResult(r: ResultRow) {
  const status = r.status === 'void' ? 'Canceled' : (r.upstream_status ?? (r.status === 'failed' ? 'Canceled' : 'Pending'))
  const remains = r.remains ?? r.quantity
  return {
    variant_id: r.variant_id,
    order_id: r.upstream_order_id ?? '',
    status,
    start_count: r.start_count ?? 0,
    remains,
    delivered_count: r.status === 'completed' ? r.quantity - Math.min(remains, r.quantity) : 0,
    refund_amount: r.refund_amount,
  }
}

type UpstreamResults = { h2h_results: ReturnType<typeof h2hResult>[]; smm_results: ReturnType<typeof smmResult>[] }

/** DESIGN §5: one h2h result per provider request, one smm result per panel order, in line order. */
export async function loadUpstreamResults(db: Database, orderId: number): Promise<UpstreamResults> {
  return (await loadUpstreamResultsOf(db, [orderId])).get(orderId)!
}

/** The upstream results of many orders in one query (the webhook worker builds a batch's payloads at once). */
export async function loadUpstreamResultsOf(db: Database, orderIds: number[]): Promise<Map<number, UpstreamResults>> {
  const rows = orderIds.length
    ? await db
        .selectFrom('dispatches as d')
        .innerJoin('order_lines as l', 'l.id', 'd.order_line_id')
        .select([
          'd.order_id',
          'd.kind',
          'd.status',
          'd.sn',
          'd.message',
          'd.upstream_order_id',
          'd.upstream_status',
          'd.start_count',
          'd.remains',
          'd.quantity',
          'd.refund_amount',
          'l.item_id as variant_id',
        ])
        .where('d.order_id', 'in', orderIds)
        .orderBy('d.order_id')
        .orderBy('l.position')
        .orderBy('d.seq')
        .execute()
    : []
  const results = new Map<number, UpstreamResults>(orderIds.map((id) => [id, { h2h_results: [], smm_results: [] }]))
  for (const r of rows) {
    const own = results.get(r.order_id)!
    if (r.kind === 'digiflazz') own.h2h_results.push(h2hResult(r))
    else if (r.kind === 'smm_panel') own.smm_results.push(smmResult(r))
  }
  return results
}
