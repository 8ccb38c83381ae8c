import crypto from 'node:crypto'
import { expect } from 'vitest'
import type { App } from '../src/http/server.js'
import { createReseller, type Reseller } from './factory.js'
import type { Received } from './receiver.js'

/** A reseller with a funded balance, a webhook secret and webhooks on to `url`. */
export async function subscriber(app: App, url: string): Promise<Reseller & { secret: string }> {
  const r = await createReseller(app, { balance: 10_000_000 })
  const secret = (await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })).json().data.webhook_secret
  const res = await app.inject({
    method: 'PUT',
    url: '/api/v1/webhook',
    headers: r.headers,
    payload: { callback_url: url, webhook_enabled: true },
  })
  expect(res.statusCode, res.body).toBe(200)
  return { ...r, secret }
}

/** The public docs' X-Signature of a received call, as a receiver computes it. */
export const xSignature = (call: Received, signed: string, secret: string) =>
  crypto.createHash('sha256').update(`${call.json.data.ref_id}:${call.json.data.invoice}:${signed}:${secret}`).digest('hex')
