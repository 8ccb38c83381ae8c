import type { AppContext } from '../src/context.js'
import type { App } from '../src/http/server.js'
import { createWebhookWorker } from '../src/modules/webhooks/index.js'
import type { Reseller } from './factory.js'

export type Cart = { item_id: number; quantity: number; note?: string; max_price?: number | string | null }

export function buy(app: App, reseller: Reseller, ref_id: string, carts: Cart[], extra: Record<string, unknown> = {}) {
  return app.inject({ method: 'POST', url: '/api/v1/trx', headers: reseller.headers, payload: { ref_id, carts, ...extra } })
}

export async function balanceOf(app: App, reseller: Reseller): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/balance', headers: reseller.headers })
  return res.json().data.balance
}

export async function stockOf(app: App, reseller: Reseller, itemId: number): Promise<number | null> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/item/${itemId}`, headers: reseller.headers })
  return res.json().data.stock
}

/** One pass of the outbox relay, as the webhook worker runs it: it also counts completed orders on the leaderboard. */
export async function relayEvents(ctx: AppContext): Promise<number> {
  return (await createWebhookWorker(ctx).runOnce()).relayed
}
