import crypto from 'node:crypto'
import { isRecord, postUpstream, text, type ProviderAccount, type UpstreamReply } from './upstream-http.js'

/**
 * What one Digiflazz transaction request came to. `pending` covers every answer that is not final;
 * `refused`: the connection was never made, so nothing reached Digiflazz; `price`: what Digiflazz
 * says it charged (a success's `price`, a positive whole number), when it said so.
 */
export type H2hOutcome = {
  status: 'completed' | 'failed' | 'pending'
  sn: string | null
  message: string
  refused?: boolean
  price?: number
  /** rc 44 ("Saldo tidak cukup"): the operator's deposit at Digiflazz is too low; its balance is read at once. */
  balanceLow?: true
}

export const digiflazzSign = (username: string, apiKey: string, salt: string) =>
  crypto
    .createHash('md5')
    .update(username + apiKey + salt)
    .digest('hex')

const SUCCESS = ['sukses', 'success']
const PENDING = ['pending', 'processing']
const FAILED = ['gagal', 'failed']

/**
 * Reads an answer of POST /transaction. rc 00 is success, 03, 99 and 49 pending, any other rc final;
 * the status word (Sukses/Pending/Gagal or Success/Processing/Failed) must not contradict it.
 * A timeout, a 5xx, a body without data, or an rc/status pair that disagrees is not final.
 * rc 69 ("Harga seller lebih besar dari ketentuan harga Buyer": the price is above the request's
 * max_price, and no transaction was made) is one of those final failures: another source may take it.
 */
export function readTransaction(reply: UpstreamReply): H2hOutcome {
  if (reply.kind === 'unreachable')
    return { status: 'pending', sn: null, message: `provider unreachable: ${reply.reason}`, ...(reply.refused && { refused: true }) }
  if (reply.status >= 500) return { status: 'pending', sn: null, message: `provider answered HTTP ${reply.status}` }
  const data = isRecord(reply.body) && isRecord(reply.body.data) ? reply.body.data : undefined
  const rc = text(data?.rc)
  const word = text(data?.status)?.toLowerCase()
  const message = text(data?.message) ?? ''
  const sn = text(data?.sn) || null
  if (!data || (rc === undefined && word === undefined))
    return { status: 'pending', sn: null, message: `unreadable answer (HTTP ${reply.status})` }
  // rc 49: the ref_id is already known upstream. Never a failure: the provider may be filling that
  // order, and refunding it would give the goods away; it stays pending and is checked again.
  if (rc === '49') return { status: 'pending', sn: null, message: `ref already known upstream: ${message || 'rc 49'}` }
  const byRc = rc === undefined ? undefined : rc === '00' ? 'completed' : rc === '03' || rc === '99' ? 'pending' : 'failed'
  const byWord =
    word === undefined
      ? undefined
      : SUCCESS.includes(word)
        ? 'completed'
        : PENDING.includes(word)
          ? 'pending'
          : FAILED.includes(word)
            ? 'failed'
            : 'unknown'
  if (byWord === 'unknown' || (byRc && byWord && byRc !== byWord))
    return { status: 'pending', sn: null, message: `unclear answer: rc ${rc}, status ${word}` }
  const status = (byRc ?? byWord) as H2hOutcome['status']
  // Only a success charged anything; its price is the cost actually paid (docs/design.md §11c).
  const price = status === 'completed' ? chargedPrice(data.price) : undefined
  return {
    status,
    sn: status === 'completed' ? sn : null,
    message: message || (rc ? `rc ${rc}` : word!),
    ...(price !== undefined && { price }),
    ...(status === 'failed' && rc === '44' && { balanceLow: true as const }),
  }
}

/** A price Digiflazz answered, as a whole number of Rupiah within the money bounds (10^15); else unknown. */
function chargedPrice(value: unknown): number | undefined {
  const price = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value
  return typeof price === 'number' && Number.isSafeInteger(price) && price > 0 && price <= 1e15 ? price : undefined
}

/**
 * Places the order, or, for a ref_id already sent, asks its status: the same request either way.
 * `maxPrice` (Digiflazz's max_price): the most this request may cost; Digiflazz refuses it (rc 69)
 * rather than charge more. Never sent again on a lost connection: it may place the order.
 */
export async function sendTransaction(
  account: ProviderAccount,
  req: { sku: string; customerNo: string; refId: string; qty?: number; maxPrice?: number },
  timeoutMs: number,
): Promise<H2hOutcome> {
  const body = {
    username: account.username,
    buyer_sku_code: req.sku,
    customer_no: req.customerNo,
    ref_id: req.refId,
    // An open denomination's nominal (what the line was charged for); absent for fixed products.
    ...(req.qty !== undefined && { qty: req.qty }),
    ...(req.maxPrice !== undefined && { max_price: req.maxPrice }),
    sign: digiflazzSign(account.username, account.apiKey, req.refId),
  }
  return readTransaction(await postUpstream(`${account.baseUrl}/transaction`, { json: body }, timeoutMs))
}

export type PlnInquiry =
  { found: true; name: string; meterNo: string; segmentPower: string } | { found: false; message: string } | { unavailable: string }

/** POST /inquiry-pln: the name on a PLN meter (sign = md5(username + key + customer_no)). */
export async function inquirePln(account: ProviderAccount, customerNo: string, timeoutMs: number): Promise<PlnInquiry> {
  const body = { username: account.username, customer_no: customerNo, sign: digiflazzSign(account.username, account.apiKey, customerNo) }
  const reply = await postUpstream(`${account.baseUrl}/inquiry-pln`, { json: body }, timeoutMs, { read: true })
  if (reply.kind === 'unreachable') return { unavailable: reply.reason }
  const data = isRecord(reply.body) && isRecord(reply.body.data) ? reply.body.data : undefined
  if (reply.status >= 500 || !data) return { unavailable: `HTTP ${reply.status}` }
  const name = text(data.name)
  if (!name) return { found: false, message: text(data.message) ?? 'meter not found' }
  return { found: true, name, meterNo: text(data.meter_no) ?? customerNo, segmentPower: text(data.segment_power) ?? '' }
}

/**
 * `POST /cek-saldo` (docs/design.md §11e): the operator's deposit at Digiflazz, in Rupiah; undefined
 * when the answer is not one (the caller records why).
 */
export async function depositBalance(
  account: ProviderAccount,
  timeoutMs: number,
): Promise<{ balance: string; currency: string } | undefined> {
  const body = { cmd: 'deposit', username: account.username, sign: digiflazzSign(account.username, account.apiKey, 'depo') }
  const reply = await postUpstream(`${account.baseUrl}/cek-saldo`, { json: body }, timeoutMs, { read: true })
  if (reply.kind === 'unreachable' || reply.status >= 400) return undefined
  const data = isRecord(reply.body) && isRecord(reply.body.data) ? reply.body.data : undefined
  const deposit = text(data?.deposit)
  return deposit !== undefined && /^-?\d{1,18}(\.\d{1,4})?$/.test(deposit) ? { balance: deposit, currency: 'IDR' } : undefined
}
