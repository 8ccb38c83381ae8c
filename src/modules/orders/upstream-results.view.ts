import type { Dispatch, ProviderMeta } from '../../db/schema.js'
import { publicProviderMeta } from '../catalog/index.js'

export type ResultRow = Pick<
  Dispatch,
  | 'id'
  | 'kind'
  | 'status'
  | 'sn'
  | 'message'
  | 'upstream_order_id'
  | 'upstream_status'
  | 'start_count'
  | 'remains'
  | 'quantity'
  | 'refund_amount'
  | 'failover_of'
  | 'provider_code'
  | 'amount'
  | 'cost'
> & {
  variant_id: number
  line_id: number
  /** The reference the provider knows the request by. */
  upstream_ref: string
  /** The provider's code. */
  provider: string
  /** The item's provider_meta now. */
  provider_meta: ProviderMeta | null
}

/** h2h: pending until a final answer; a request an operator cancel voided never reached the provider. */
function h2hOutcome(r: ResultRow) {
  const failed = r.status === 'failed' || r.status === 'void'
  const reason = r.status === 'void' ? 'canceled before it was sent' : r.message || 'failed'
  return {
    sn: r.status === 'completed' ? (r.sn ?? '') : failed ? `failed: ${reason}` : '',
    dispatch_status: r.status === 'completed' ? 'completed' : failed ? 'failed' : 'pending',
    message: r.status === 'void' ? reason : (r.message ?? ''),
  }
}

function h2hResult(r: ResultRow) {
  const { sn, dispatch_status, message } = h2hOutcome(r)
  return {
    variant_id: r.variant_id,
    sn,
    dispatch_status,
    log_message: message,
    h2h_provider: r.provider,
    provider_meta: publicProviderMeta(r.provider_meta, 'h2h'),
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
    provider_status: r.upstream_status,
    delivered_count: r.status === 'completed' ? r.quantity - Math.min(remains, r.quantity) : 0,
    refund_amount: r.refund_amount,
    // A panel's Partial is refunded when it is reported (checkout/settlement.ts): no partial refund ever waits for an operator.
    partial_refund_pending_manual: false,
  }
}

/** The requests that stand for their unit: one that failed over to another source gave way to its successor (docs/design.md §11b). */
function standing(rows: ResultRow[]): ResultRow[] {
  const replaced = new Set(rows.flatMap((r) => (r.failover_of == null ? [] : [r.failover_of])))
  return replaced.size === 0 ? rows : rows.filter((r) => !replaced.has(r.id))
}

/** docs/design.md §5: one h2h result per provider request, one smm result per panel order, from the requests in line order. */
export function upstreamResultsOf(rows: ResultRow[]) {
  const shown = standing(rows)
  return {
    h2h_results: shown.filter((r) => r.kind === 'digiflazz').map(h2hResult),
    smm_results: shown.filter((r) => r.kind === 'smm_panel').map(smmResult),
  }
}

/** Every upstream request of an order for its operator: which source served it, at what cost, and what it replaced. */
export function upstreamRequestsOf(rows: ResultRow[]) {
  return rows.map((r) => ({
    id: r.id,
    line_id: r.line_id,
    provider: r.provider,
    provider_code: r.provider_code,
    upstream_ref: r.upstream_ref,
    status: r.status,
    amount: r.amount,
    cost: r.cost,
    refund_amount: r.refund_amount,
    message: r.message,
    failover_of: r.failover_of,
  }))
}

/** The webhook docs' per-line `h2h_results`: the line's latest provider request, `ref_id` the reference the provider knows. */
export type LineH2hResult = { sn: string; dispatch_status: string; dispatch_message: string; ref_id: string }

/** Each h2h line's latest request, by line id (requests come in line order, then sequence). */
export function latestH2hByLine(rows: ResultRow[]): Map<number, LineH2hResult> {
  const latest = new Map<number, LineH2hResult>()
  for (const r of standing(rows)) {
    if (r.kind !== 'digiflazz') continue
    const { sn, dispatch_status, message } = h2hOutcome(r)
    latest.set(r.line_id, { sn, dispatch_status, dispatch_message: message, ref_id: r.upstream_ref })
  }
  return latest
}

/** Each smm line's panel status now (its latest standing request): the item's `provider_status` (docs/design.md §8). */
export function smmStatusByLine(rows: ResultRow[]): Map<number, string | null> {
  const latest = new Map<number, string | null>()
  for (const r of standing(rows)) if (r.kind === 'smm_panel') latest.set(r.line_id, r.upstream_status)
  return latest
}
