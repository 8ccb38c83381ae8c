import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const TRIPAY = { apiKey: 'DEV-test-api-key', privateKey: 'priv-ABCDE-12345', merchantCode: 'T0001' }

const hmac = (data: string) => crypto.createHmac('sha256', TRIPAY.privateKey).update(data).digest('hex')

const CHANNELS = [
  {
    group: 'Virtual Account',
    code: 'BRIVA',
    name: 'BRI Virtual Account',
    type: 'direct',
    fee_merchant: { flat: 0, percent: 0 },
    fee_customer: { flat: 4250, percent: 0 },
    total_fee: { flat: 4250, percent: '0.00' },
    minimum_amount: 10000,
    maximum_amount: 10000000,
    active: true,
  },
  {
    group: 'E-Wallet',
    code: 'QRIS2',
    name: 'QRIS',
    type: 'direct',
    fee_merchant: { flat: 0, percent: 0 },
    fee_customer: { flat: 750, percent: 0.7 },
    total_fee: { flat: 750, percent: '0.70' },
    minimum_amount: 1000,
    maximum_amount: 5000000,
    active: true,
  },
  {
    group: 'Convenience Store',
    code: 'ALFAMART',
    name: 'Alfamart',
    type: 'direct',
    fee_merchant: { flat: 0, percent: 0 },
    fee_customer: { flat: 3500, percent: 0 },
    total_fee: { flat: 3500, percent: '0.00' },
    minimum_amount: 10000,
    maximum_amount: 2500000,
    active: false,
  },
]

export type FakeTripay = {
  baseUrl: string
  /** Every transaction/create body received, as parsed JSON. */
  created: Record<string, any>[]
  /** The next create answers {success: false}. */
  refuseNext: () => void
  /** A callback as Tripay sends it: the raw JSON text and its X-Callback-Signature. */
  callback(fields: { reference: string; merchant_ref: string; status: string; total_amount?: number }): { raw: string; signature: string }
  close(): Promise<void>
}

/** A local stand-in speaking Tripay's protocol: Bearer API key, signed closed transactions, the channel list. */
export async function startFakeTripay(): Promise<FakeTripay> {
  const created: Record<string, any>[] = []
  let refuse = false
  let sequence = 0
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const send = (status: number, payload: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload))
      if (req.headers.authorization !== `Bearer ${TRIPAY.apiKey}`) return send(401, { success: false, message: 'Invalid API Key' })
      if (req.method === 'GET' && req.url === '/merchant/payment-channel')
        return send(200, { success: true, message: 'Success', data: CHANNELS })
      if (req.method === 'POST' && req.url === '/transaction/create') {
        const t = JSON.parse(body)
        created.push(t)
        if (refuse) return ((refuse = false), send(400, { success: false, message: 'Payment channel is not enabled' }))
        if (t.signature !== hmac(`${TRIPAY.merchantCode}${t.merchant_ref}${t.amount}`))
          return send(400, { success: false, message: 'Invalid signature' })
        const channel = CHANNELS.find((c) => c.code === t.method)
        if (!channel) return send(400, { success: false, message: 'Invalid payment method' })
        const fee = channel.fee_customer.flat + Math.ceil((t.amount * channel.fee_customer.percent) / 100)
        const reference = `DEV-T${TRIPAY.merchantCode}${String(++sequence).padStart(6, '0')}`
        return send(200, {
          success: true,
          message: '',
          data: {
            reference,
            merchant_ref: t.merchant_ref,
            payment_method: t.method,
            amount: t.amount + fee,
            fee_customer: fee,
            checkout_url: `http://127.0.0.1:${port}/checkout/${reference}`,
            status: 'UNPAID',
            expired_time: t.expired_time,
          },
        })
      }
      send(404, { success: false, message: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    created,
    refuseNext: () => (refuse = true),
    callback(fields) {
      // Tripay's own formatting, spaces included: only these exact bytes carry the signature.
      const raw = JSON.stringify(
        {
          ...fields,
          payment_method: 'QRIS',
          payment_method_code: 'QRIS2',
          fee_merchant: 0,
          fee_customer: 0,
          total_fee: 0,
          is_closed_payment: 1,
          paid_at: 1763256923,
          note: null,
        },
        null,
        1,
      )
      return { raw, signature: hmac(raw) }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The service's settings for talking to `tripay`, as an operator would set them. */
export function tripayEnv(tripay: FakeTripay): Record<string, string> {
  return {
    PAYMENT_GATEWAY: 'tripay',
    PUBLIC_URL: 'https://shop.example',
    TRIPAY_BASE_URL: tripay.baseUrl,
    TRIPAY_API_KEY: TRIPAY.apiKey,
    TRIPAY_PRIVATE_KEY: TRIPAY.privateKey,
    TRIPAY_MERCHANT_CODE: TRIPAY.merchantCode,
  }
}
