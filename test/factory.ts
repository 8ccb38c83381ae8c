import { expect } from 'vitest'
import type { App } from '../src/http/server.js'
import { ADMIN_TOKEN } from './app.js'

const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }

/** Calls the operator API and insists on success. */
export async function admin<T = any>(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
): Promise<T> {
  const res = await app.inject({ method, url: `/api/admin/v1${url}`, headers: adminHeaders, payload })
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
  return res.json().data as T
}

export type Reseller = { id: number; apiKey: string; headers: { 'x-apikey': string } }

export async function createReseller(app: App, options: { balance?: number; name?: string } = {}): Promise<Reseller> {
  const account = await admin(app, 'POST', '/resellers', { name: options.name ?? 'Test Shop' })
  if (options.balance) await admin(app, 'POST', `/resellers/${account.id}/balance`, { amount: options.balance, reason: 'test funding' })
  return { id: account.id, apiKey: account.api_key, headers: { 'x-apikey': account.api_key } }
}

let skuCounter = 0

export async function createItem(app: App, body: Record<string, unknown> = {}) {
  return admin(app, 'POST', '/items', {
    product_name: 'Test Product',
    name: `Test Item ${++skuCounter}`,
    sku: `T-${process.pid}-${skuCounter}`,
    price: 10000,
    order_process: 'auto',
    ...body,
  })
}

/**
 * An open denomination (DANA by its amount: provider_meta's open_denom) of a Digiflazz provider made for it,
 * which is never called: enough for the refusals a purchase or a sandbox order makes before anything is sent.
 */
export async function createOpenDenomination(app: App, provider: string, price: number, meta: Record<string, number>) {
  await admin(app, 'POST', '/providers', {
    code: provider,
    kind: 'digiflazz',
    base_url: 'http://127.0.0.1:9/v1',
    username: 'u',
    api_key: 'k',
  })
  return createItem(app, {
    order_process: 'h2h',
    price,
    unlimited_stock: true,
    provider,
    provider_code: 'dana',
    provider_meta: { open_denom: true, ...meta },
  })
}

export async function createAutoItem(app: App, licenses: number, body: Record<string, unknown> = {}) {
  const item = await createItem(app, { order_process: 'auto', ...body })
  if (licenses > 0) {
    await admin(app, 'POST', `/items/${item.id}/licenses`, {
      licenses: Array.from({ length: licenses }, (_, i) => `LIC-${item.id}-${i}-${Math.random().toString(36).slice(2)}`),
    })
  }
  return item
}

export async function get(app: App, url: string, reseller: Reseller) {
  return app.inject({ method: 'GET', url: `/api/v1${url}`, headers: reseller.headers })
}
