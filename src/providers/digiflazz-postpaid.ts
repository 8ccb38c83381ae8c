import { digiflazzSign, readTransaction, type H2hOutcome } from './digiflazz.js'
import { isRecord, postUpstream, text, type ProviderAccount } from './upstream-http.js'

// Digiflazz's postpaid protocol (docs/design.md §5c): POST /transaction with `commands` inq-pasca (the
// bill), then pay-pasca with the same ref_id (the payment), status-pasca to resolve a pending one.
// Every request is signed md5(username + key + ref_id), as a prepaid one.

export type PostpaidCommand = 'inq-pasca' | 'pay-pasca' | 'status-pasca'
export type PostpaidRequest = { sku: string; customerNo: string; refId: string }

/** One month (or period) of a bill as the provider itemises it, in Rupiah. */
export type BillPeriod = { period: string; billAmount: number; admin: number; penalty: number }

/** What an inquiry came to; anything the caller cannot act on is `unavailable` (a 503, ask again). */
export type BillInquiry =
  | { kind: 'bill'; customerName: string; periods: BillPeriod[]; providerPrice: number; message: string }
  | { kind: 'no_bill'; message: string }
  | { kind: 'wrong_customer'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'unavailable'; reason: string }

// rc 60: no bill for this customer now (paid already, or not yet issued).
const NO_BILL = new Set(['60'])
// The customer number itself is wrong: blocked (51), wrong number (54), wrong length (57), outside the area (59).
const WRONG_CUSTOMER = new Set(['51', '54', '57', '59'])
// Not an answer yet: processing (03), the provider's router (99).
const NOT_YET = new Set(['03', '99'])

function postpaidBody(account: ProviderAccount, command: PostpaidCommand, req: PostpaidRequest) {
  return {
    commands: command,
    username: account.username,
    buyer_sku_code: req.sku,
    customer_no: req.customerNo,
    ref_id: req.refId,
    sign: digiflazzSign(account.username, account.apiKey, req.refId),
  }
}

/** A whole, non-negative Rupiah figure, sent as a number or as digits; anything else is unreadable. */
function rupiah(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim())
  return undefined
}

function periodsOf(desc: unknown): BillPeriod[] | undefined {
  const detail = isRecord(desc) ? desc.detail : undefined
  if (!Array.isArray(detail) || detail.length === 0) return undefined
  const periods: BillPeriod[] = []
  for (const row of detail) {
    if (!isRecord(row)) return undefined
    const billAmount = rupiah(row.nilai_tagihan)
    const admin = rupiah(row.admin ?? 0)
    const penalty = rupiah(row.denda ?? 0)
    if (billAmount === undefined || admin === undefined || penalty === undefined) return undefined
    periods.push({ period: text(row.periode) ?? '', billAmount, admin, penalty })
  }
  return periods
}

/**
 * inq-pasca: the customer's bill, itemised by period, under `refId` (the ref the payment must reuse).
 * A read: a ref already inquired is answered with the same bill.
 */
export async function inquireBill(account: ProviderAccount, req: PostpaidRequest, timeoutMs: number): Promise<BillInquiry> {
  const body = { json: postpaidBody(account, 'inq-pasca', req) }
  const reply = await postUpstream(`${account.baseUrl}/transaction`, body, timeoutMs, { read: true })
  if (reply.kind === 'unreachable') return { kind: 'unavailable', reason: reply.reason }
  if (reply.status >= 500) return { kind: 'unavailable', reason: `HTTP ${reply.status}` }
  const data = isRecord(reply.body) && isRecord(reply.body.data) ? reply.body.data : undefined
  const rc = text(data?.rc)
  if (!data || rc === undefined) return { kind: 'unavailable', reason: `unreadable answer (HTTP ${reply.status})` }
  const message = text(data.message) ?? `rc ${rc}`
  if (rc === '00') {
    const periods = periodsOf(data.desc)
    if (!periods) return { kind: 'unavailable', reason: 'the bill came without a readable breakdown' }
    // The supplier's price is the bill's cost (docs/design.md §11c): without it the floor cannot be kept.
    const providerPrice = rupiah(data.price)
    if (providerPrice === undefined) return { kind: 'unavailable', reason: 'the bill came without the supplier’s price' }
    const customerName = text(data.customer_name)?.trim() ?? ''
    return { kind: 'bill', customerName, periods, providerPrice, message }
  }
  if (NO_BILL.has(rc)) return { kind: 'no_bill', message }
  if (WRONG_CUSTOMER.has(rc)) return { kind: 'wrong_customer', message }
  if (NOT_YET.has(rc)) return { kind: 'unavailable', reason: `no bill yet: ${message}` }
  return { kind: 'refused', message }
}

/**
 * pay-pasca (the payment, sent once) or status-pasca (what became of it), read as a prepaid answer
 * is: rc 00 paid with its `sn` (the payment reference), 03/99/49 and anything unclear pending, any
 * other rc failed. Only status-pasca is a read: a pay-pasca that lost its connection is never sent again here.
 */
export async function sendPostpaid(
  account: ProviderAccount,
  command: Exclude<PostpaidCommand, 'inq-pasca'>,
  req: PostpaidRequest,
  timeoutMs: number,
): Promise<H2hOutcome> {
  const body = { json: postpaidBody(account, command, req) }
  return readTransaction(
    await postUpstream(`${account.baseUrl}/transaction`, body, timeoutMs, command === 'status-pasca' ? { read: true } : {}),
  )
}
