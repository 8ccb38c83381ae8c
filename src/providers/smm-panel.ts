import { isRecord, postUpstream, text, type ProviderAccount } from './upstream-http.js'

/**
 * The answer to `add`: placed with the panel's order id; refused by the panel (an `error`, nothing
 * placed); not sent (the connection was refused); or unknown (a timeout, a 5xx, an unreadable body),
 * which may have placed an order: `add` has no client reference, so it is never sent again.
 */
export type SmmAddOutcome =
  | { result: 'placed'; orderId: string }
  | { result: 'refused'; message: string }
  | { result: 'not_sent'; message: string }
  | { result: 'unknown'; message: string }

export async function addOrder(
  account: ProviderAccount,
  req: { service: string; link: string; quantity: number; comments?: string },
  timeoutMs: number,
): Promise<SmmAddOutcome> {
  const form: Record<string, string> = {
    key: account.apiKey,
    action: 'add',
    service: req.service,
    link: req.link,
    quantity: String(req.quantity),
  }
  if (req.comments) form.comments = req.comments
  const reply = await postUpstream(account.baseUrl, { form }, timeoutMs)
  if (reply.kind === 'unreachable')
    return reply.refused ? { result: 'not_sent', message: reply.reason } : { result: 'unknown', message: reply.reason }
  if (reply.status >= 500 || !isRecord(reply.body)) return { result: 'unknown', message: `unreadable answer (HTTP ${reply.status})` }
  const orderId = text(reply.body.order)
  if (orderId) return { result: 'placed', orderId }
  const error = text(reply.body.error)
  return error
    ? { result: 'refused', message: error }
    : { result: 'unknown', message: `answer without order or error (HTTP ${reply.status})` }
}

/** One panel order's state; `unknown` (an id-level error, an unreadable entry) is never final. */
export type SmmOrderState = {
  state: 'running' | 'completed' | 'partial' | 'canceled' | 'unknown'
  status: string
  startCount: number | null
  remains: number | null
  message: string
}

const RUNNING = ['pending', 'processing', 'in progress']
const asCount = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : null
}

export function readOrderState(entry: unknown): SmmOrderState {
  if (!isRecord(entry)) return { state: 'unknown', status: '', startCount: null, remains: null, message: 'no entry in the answer' }
  const error = text(entry.error)
  const status = text(entry.status) ?? ''
  const word = status.trim().toLowerCase()
  const state = error
    ? 'unknown'
    : word === 'completed'
      ? 'completed'
      : word === 'partial'
        ? 'partial'
        : word === 'canceled' || word === 'cancelled'
          ? 'canceled'
          : RUNNING.includes(word)
            ? 'running'
            : 'unknown'
  return {
    state,
    status,
    startCount: asCount(entry.start_count),
    remains: asCount(entry.remains),
    message: error ?? (state === 'unknown' ? `unknown status "${status}"` : status),
  }
}

/** `status` for up to 100 orders in one call; undefined when the panel gave no usable answer. */
export async function orderStates(
  account: ProviderAccount,
  orderIds: string[],
  timeoutMs: number,
): Promise<Map<string, SmmOrderState> | undefined> {
  if (orderIds.length > 100) throw new Error('at most 100 orders per status call')
  const reply = await postUpstream(
    account.baseUrl,
    { form: { key: account.apiKey, action: 'status', orders: orderIds.join(',') } },
    timeoutMs,
    { read: true },
  )
  if (reply.kind === 'unreachable' || reply.status >= 500 || !isRecord(reply.body)) return undefined
  const body = reply.body
  return new Map(orderIds.map((id) => [id, readOrderState(body[id])]))
}

/** `balance`: what the operator has left at the panel. */
export async function panelBalance(
  account: ProviderAccount,
  timeoutMs: number,
): Promise<{ balance: string; currency: string } | undefined> {
  const reply = await postUpstream(account.baseUrl, { form: { key: account.apiKey, action: 'balance' } }, timeoutMs, { read: true })
  if (reply.kind === 'unreachable' || !isRecord(reply.body) || text(reply.body.balance) === undefined) return undefined
  return { balance: text(reply.body.balance)!, currency: text(reply.body.currency) ?? '' }
}
