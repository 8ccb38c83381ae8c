import { inTransaction, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { sendTransaction } from '../../providers/digiflazz.js'
import { sendPostpaid } from '../../providers/digiflazz-postpaid.js'
import { orderStates } from '../../providers/smm-panel.js'
import type { Vault } from '../../vault.js'
import { loadProviderAccount } from '../fulfilment/index.js'
import { recordStep } from './complaints.queries.js'
import { findComplaintTarget, latestUpstreamRequest, type UpstreamRequestRow } from './operator.queries.js'
import { getOperatorComplaint, lockOpenComplaint, refuseClosed } from './operator.service.js'
import type { Sla } from './operator.view.js'

/** What the provider said of the request: delivered (with its SN, if any) or not yet, in its words. */
type Looked = { delivered: boolean; said: string }

const notAllowed = (why: string) => new AppError('COMPLAINT_NOT_ALLOWED', { fieldErrors: { id: [why] } })
const noAnswer = (why: string) => new AppError('SERVICE_UNAVAILABLE', { fieldErrors: { provider: [why] }, detail: why })

/**
 * The request's state at its provider, never a new order: Digiflazz answers a ref_id it knows with
 * its state (the same /transaction request; a bill's status-pasca), so only a request it has seen
 * is asked (completed, or pending after a send); an smm panel is asked `status` of its order id.
 */
async function lookUpstream(db: Database, vault: Vault, r: UpstreamRequestRow, timeoutMs: number): Promise<Looked> {
  const account = await loadProviderAccount(db, vault, r.provider)
  if (!account) throw notAllowed(`provider ${r.provider} has no credentials: set its API key first`)
  if (r.kind === 'smm_panel') {
    if (!r.upstream_order_id) throw notAllowed('the request was never placed at the panel: nothing to ask it')
    const state = (await orderStates(account, [r.upstream_order_id], timeoutMs))?.get(r.upstream_order_id)
    if (!state) throw noAnswer(`panel ${r.provider} gave no usable answer; try again later`)
    const counts = state.remains === null ? '' : ` (remains ${state.remains})`
    return { delivered: state.state === 'completed', said: `${r.provider} order ${r.upstream_order_id}: ${state.message}${counts}` }
  }
  const seen = r.status === 'completed' || (r.status === 'pending' && r.first_sent_at !== null)
  if (!seen) throw notAllowed(`the request is ${r.status} at ${r.provider}: only a request the provider has answered is checked`)
  const req = { sku: r.provider_code, customerNo: r.target, refId: r.upstream_ref }
  const outcome =
    r.options?.postpaid === true
      ? await sendPostpaid(account, 'status-pasca', req, timeoutMs)
      : await sendTransaction(
          account,
          { ...req, qty: typeof r.options?.qty === 'number' ? r.options.qty : undefined, maxPrice: r.max_cost ?? undefined },
          timeoutMs,
        )
  if (outcome.message.startsWith('provider unreachable')) throw noAnswer(`${r.provider}: ${outcome.message}; try again later`)
  if (outcome.status === 'completed') {
    return { delivered: true, said: `Delivered at the provider${outcome.sn ? `, SN ${outcome.sn}` : ''}: ${outcome.message}` }
  }
  return { delivered: false, said: `The provider says the request is ${outcome.status}: ${outcome.message}` }
}

/**
 * POST /complaints/{id}/recheck (docs/design.md §14): the line's latest upstream request asked about
 * at its provider with no row locked during the call; delivered upstream closes the complaint
 * `resolved` with the SN, anything else answers it with what the provider said. An auto or manual
 * line has nothing upstream: COMPLAINT_NOT_ALLOWED.
 */
export async function recheckComplaint(db: Database, vault: Vault, sla: Sla, timeoutMs: number, id: number, operatorName: string) {
  const t = await findComplaintTarget(db, id)
  if (!t) throw new AppError('COMPLAINT_NOT_FOUND')
  refuseClosed(t)
  if (t.order_process !== 'h2h' && t.order_process !== 'smm') {
    throw notAllowed(`a ${t.order_process} line has no upstream request to check: reply, resend or refund`)
  }
  const request = await latestUpstreamRequest(db, t.line_id)
  if (!request) throw notAllowed('the line has no upstream request yet')
  const looked = await lookUpstream(db, vault, request, timeoutMs)
  await inTransaction(db, async (trx) => {
    await lockOpenComplaint(trx, id)
    await recordStep(trx, id, {
      author: 'operator',
      authorName: operatorName,
      action: 'recheck',
      body: looked.said.slice(0, 2000),
      ...(looked.delivered ? { status: 'closed', resolution: 'resolved' } : { status: 'answered' }),
    })
  })
  return getOperatorComplaint(db, sla, id)
}
