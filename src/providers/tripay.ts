import crypto from 'node:crypto'
import type { ChannelType } from '../db/schema.js'
import { type GatewayChannel, GatewayError, type PaymentGateway } from '../modules/topups/index.js'

export type TripaySettings = { baseUrl: string; apiKey: string; privateKey: string; merchantCode: string }

const TIMEOUT_MS = 15_000

const hmac = (key: string, data: string | Buffer) => crypto.createHmac('sha256', key).update(data).digest('hex')

/** The closed-transaction signature: HMAC-SHA256 of merchant code + merchant ref + amount under the private key. */
export function tripaySignature(s: TripaySettings, merchantRef: string, amount: number): string {
  return hmac(s.privateKey, `${s.merchantCode}${merchantRef}${amount}`)
}

/** X-Callback-Signature is the HMAC-SHA256 of the raw body as sent: a re-serialised body does not match. */
export function isTripayCallbackSigned(privateKey: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false
  return crypto.timingSafeEqual(Buffer.from(hmac(privateKey, rawBody), 'hex'), Buffer.from(signature, 'hex'))
}

/** Tripay's groups as our channel types (QRIS channels sit in its E-Wallet group). */
function channelType(group: string, code: string): ChannelType {
  if (/^QRIS/i.test(code)) return 'qris'
  if (/virtual account/i.test(group)) return 'va'
  if (/convenience|retail/i.test(group)) return 'retail'
  return 'ewallet'
}

type Envelope<T> = { success?: unknown; message?: unknown; data?: T }
type TripayChannel = {
  group: string
  code: string
  name: string
  fee_customer?: { flat?: number; percent?: number | string }
  minimum_amount?: number
  maximum_amount?: number
  active?: boolean
}
type TripayTransaction = { reference: string; checkout_url?: string; pay_url?: string | null; fee_customer?: number; expired_time?: number }

/** Tripay (https://tripay.co.id/developer): payment channels and closed transactions. */
export function tripayGateway(s: TripaySettings, callbackUrl: string, fetchFn: typeof fetch = fetch): PaymentGateway {
  async function call<T>(path: string, init: { method: 'GET' | 'POST'; body?: object }): Promise<T> {
    let response: Response
    try {
      response = await fetchFn(`${s.baseUrl}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${s.apiKey}`,
          accept: 'application/json',
          ...(init.body && { 'content-type': 'application/json' }),
        },
        body: init.body && JSON.stringify(init.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (error) {
      throw new GatewayError(`tripay ${path}: ${(error as Error).message}`)
    }
    const text = await response.text()
    let envelope: Envelope<T>
    try {
      envelope = JSON.parse(text) as Envelope<T>
    } catch {
      throw new GatewayError(`tripay ${path}: HTTP ${response.status}, not JSON`)
    }
    if (envelope.success !== true || envelope.data === undefined)
      throw new GatewayError(`tripay ${path}: HTTP ${response.status} ${String(envelope.message ?? '')}`)
    return envelope.data
  }

  return {
    name: 'tripay',
    async createPayment(request) {
      const data = await call<TripayTransaction>('/transaction/create', {
        method: 'POST',
        body: {
          method: request.channel,
          merchant_ref: request.invoice,
          amount: request.amount,
          customer_name: request.customer.name,
          customer_email: request.customer.email,
          order_items: [{ sku: 'TOPUP', name: `Balance top-up ${request.invoice}`, price: request.amount, quantity: 1 }],
          callback_url: callbackUrl,
          expired_time: Math.floor(request.expiresAt.getTime() / 1000),
          signature: tripaySignature(s, request.invoice, request.amount),
        },
      })
      const paymentUrl = data.checkout_url || data.pay_url
      if (typeof data.reference !== 'string' || !paymentUrl)
        throw new GatewayError('tripay /transaction/create: no reference or payment URL')
      return {
        reference: data.reference,
        paymentUrl,
        // What the gateway itself will charge the payer wins over our own figure.
        fee: Number.isSafeInteger(data.fee_customer) ? data.fee_customer! : request.fee,
        expiresAt: Number.isSafeInteger(data.expired_time) ? new Date(data.expired_time! * 1000) : request.expiresAt,
      }
    },
    async listChannels(): Promise<GatewayChannel[]> {
      const channels = await call<TripayChannel[]>('/merchant/payment-channel', { method: 'GET' })
      if (!Array.isArray(channels)) throw new GatewayError('tripay /merchant/payment-channel: data is not a list')
      return channels.map((c) => ({
        code: c.code,
        name: c.name,
        type: channelType(c.group ?? '', c.code),
        fee_flat: Math.max(0, Math.round(Number(c.fee_customer?.flat ?? 0))),
        fee_percent: Math.min(100, Math.max(0, Math.round(Number(c.fee_customer?.percent ?? 0) * 1000) / 1000)),
        min_amount: Number(c.minimum_amount ?? 0),
        max_amount: Number(c.maximum_amount ?? 0),
        active: c.active !== false,
      }))
    },
  }
}

/** The callback body fields this service reads (X-Callback-Event: payment_status). */
export type TripayCallback = {
  reference: string
  merchant_ref: string
  status: 'PAID' | 'EXPIRED' | 'FAILED' | 'REFUND'
  /** What the payer paid (amount + fee), as sent: anything but the top-up's total is for an operator to review. */
  total_amount?: unknown
}
