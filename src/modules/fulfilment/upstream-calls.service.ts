import type { Database } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'
import { sendTransaction, type H2hOutcome } from '../../providers/digiflazz.js'
import { sendPostpaid } from '../../providers/digiflazz-postpaid.js'
import { addOrder, orderStates, type SmmOrderState } from '../../providers/smm-panel.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { RecordFinal } from './answers.js'
import { readBalanceOf } from './provider-balance.service.js'
import { markBillPaymentSent, notePendingAnswer, notePlacedSmm, requeueSmmAdd, sendSmmToReview } from './upstream-calls.queries.js'

/** record: how a final answer is recorded (checkout's recordFinal). */
export type CallSettings = { timeoutMs: number; pollSeconds: number; record: RecordFinal }

// A bill's payment marked as sent, before it leaves (see billPayment).
const PAY_SENT = 'pay-pasca sent'

/**
 * A postpaid bill's request (docs/design.md §5c): pay-pasca under the inquiry's ref, once; every later look,
 * a crash mid-call included, is status-pasca. The mark is a conditional update committed before the
 * payment leaves, so whoever loses it (or finds it set) only asks.
 */
async function billPayment(db: Database, account: ProviderAccount, d: Dispatch, timeoutMs: number): Promise<H2hOutcome> {
  const command = (await markBillPaymentSent(db, d.id, PAY_SENT)) ? 'pay-pasca' : 'status-pasca'
  return sendPostpaid(account, command, { sku: d.provider_code, customerNo: d.target, refId: d.upstream_ref }, timeoutMs)
}

/** One Digiflazz request (first send and re-check alike: same body, same ref_id; a bill's: billPayment) and its result. */
export async function sendH2h(
  db: Database,
  account: ProviderAccount | undefined,
  d: Dispatch,
  s: CallSettings,
): Promise<H2hOutcome['status']> {
  if (!account) {
    await notePendingAnswer(db, d.id, 'provider has no credentials: waiting for the operator', s.pollSeconds)
    return 'pending'
  }
  const qty = typeof d.options?.qty === 'number' ? d.options.qty : undefined
  // The floor's bound (docs/design.md §11c): above it Digiflazz fails the request (rc 69) and it fails over,
  // rather than sell at a loss.
  const maxPrice = d.max_cost ?? undefined
  const outcome =
    d.options?.postpaid === true
      ? await billPayment(db, account, d, s.timeoutMs)
      : await sendTransaction(account, { sku: d.provider_code, customerNo: d.target, refId: d.upstream_ref, qty, maxPrice }, s.timeoutMs)
  // A refused first send reached nobody: another source may take it. A refused re-check proves nothing.
  if (outcome.status === 'pending' && outcome.refused && d.attempts === 1) {
    const answer = { status: 'failed', refund: 'full', message: outcome.message, failover: 'or_keep' } as const
    if (await s.record(db, d, answer, ['pending'])) return 'failed'
  }
  // The deposit ran short (rc 44): its balance read first, so the failover and the queue see it (docs/design.md §11e).
  if (outcome.balanceLow) await readBalanceOf(db, account, d.kind, s.timeoutMs)
  if (outcome.status === 'pending') {
    await notePendingAnswer(db, d.id, outcome.message, s.pollSeconds)
  } else {
    const failed = outcome.status === 'failed'
    await s.record(
      db,
      d,
      {
        status: outcome.status,
        refund: failed ? 'full' : 'none',
        message: outcome.message,
        sn: outcome.sn,
        cost: outcome.price,
        ...(failed && { failover: 'or_refund' }),
      },
      ['pending', 'review'],
    )
  }
  return outcome.status
}

/** One smm `add`, sent at most once: the row is `sending` (claims.queries.ts) until this records the answer. */
export async function sendSmm(db: Database, account: ProviderAccount | undefined, d: Dispatch, s: CallSettings): Promise<void> {
  const backToQueue = (message: string) => requeueSmmAdd(db, d.id, message, s.pollSeconds)
  if (!account) return void (await backToQueue('provider has no credentials: waiting for the operator'))
  const outcome = await addOrder(
    account,
    { service: d.provider_code, link: d.target, quantity: d.quantity, comments: d.options?.comments },
    s.timeoutMs,
  )
  switch (outcome.result) {
    case 'placed':
      await notePlacedSmm(db, d.id, outcome.orderId, s.pollSeconds)
      return
    case 'refused':
      await s.record(
        db,
        d,
        { status: 'failed', refund: 'full', message: outcome.message, upstreamStatus: 'Canceled', failover: 'or_refund' },
        ['sending', 'review'],
      )
      return
    case 'not_sent':
      // Nothing reached the panel: another source may take it, else sending again later cannot make a second order.
      if (await s.record(db, d, { status: 'failed', refund: 'full', message: outcome.message, failover: 'or_keep' }, ['sending'])) return
      await backToQueue(outcome.message)
      return
    case 'unknown':
      await sendSmmToReview(db, d.id, `add answered nothing usable (${outcome.message}): look the order up at the panel, then resolve`)
  }
}

/** The state of up to 100 placed orders of one panel, each recorded; an unusable answer changes nothing. */
export async function checkSmm(db: Database, account: ProviderAccount | undefined, batch: Dispatch[], s: CallSettings): Promise<void> {
  const states = account
    ? await orderStates(
        account,
        batch.map((d) => d.upstream_order_id!),
        s.timeoutMs,
      )
    : undefined
  for (const d of batch) {
    const state: SmmOrderState | undefined = states?.get(d.upstream_order_id!)
    if (!state) {
      await notePendingAnswer(db, d.id, account ? 'panel gave no usable answer to status' : 'provider has no credentials', s.pollSeconds)
      continue
    }
    const seen = { upstreamStatus: state.status, startCount: state.startCount }
    if (state.state === 'completed') {
      await s.record(db, d, { status: 'completed', refund: 'none', message: state.message, ...seen, remains: 0 }, ['pending'])
    } else if (state.state === 'partial') {
      await s.record(
        db,
        d,
        {
          status: 'completed',
          refund: 'partial',
          message: state.message,
          ...seen,
          remains: Math.min(state.remains ?? d.quantity, d.quantity),
        },
        ['pending'],
      )
    } else if (state.state === 'canceled') {
      await s.record(db, d, { status: 'failed', refund: 'full', message: state.message, ...seen, remains: d.quantity }, ['pending'])
    } else if (state.state === 'running') {
      await notePendingAnswer(db, d.id, state.message, s.pollSeconds, {
        upstream_status: state.status,
        start_count: state.startCount,
        remains: state.remains,
      })
    } else {
      await notePendingAnswer(db, d.id, state.message, s.pollSeconds)
    }
  }
}
