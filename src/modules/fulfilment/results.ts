import type { Dispatch } from '../../db/schema.js'

export type ResultRow = Pick<
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

/** DESIGN §5: one h2h result per provider request, one smm result per panel order, from the requests in line order. */
export function upstreamResultsOf(rows: ResultRow[]) {
  return {
    h2h_results: rows.filter((r) => r.kind === 'digiflazz').map(h2hResult),
    smm_results: rows.filter((r) => r.kind === 'smm_panel').map(smmResult),
  }
}
