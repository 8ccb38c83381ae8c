import { sql } from 'kysely'
import { expect } from 'vitest'
import type { AppContext } from '../src/context.js'
import type { App } from '../src/http/server.js'
import type { PaymentGateway } from '../src/modules/topups/index.js'
import { hashPassword } from '../src/passwords.js'
import { admin, createAutoItem, createItem, createReseller, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { addSimulatedProvider, type Upstreams } from './upstreams.js'

// One call of each operator write that succeeds on a small store, for the sweeps that go through
// every operator route (test/roles-sweep.test.ts, test/audit-sweep.test.ts; the routes in admin-routes.ts).

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type AdminCall = { method: Method; url: string; payload?: object }

// Plain values the store's secrets had: none may ever appear in the audit log.
export const SECRETS = {
  license: 'SWEEP-LICENSE-7f3a9c2e-voucher',
  manualLicense: 'SWEEP-MANUAL-DELIVERY-b41d-account:hunter2',
  providerKey: 'sweep-provider-api-key-9e8d7c6b5a',
  newProviderKey: 'sweep-provider-api-key-rotated-1a2b3c',
  password: 'sweep password 4d1e9f',
}

export type SweepWorld = {
  a: Reseller
  b: Reseller
  /** The plain values of secrets made while building the world (API keys, a webhook secret, an invite token). */
  made: string[]
  provider: string
  items: { manual: number; auto: number; h2h: number; imported: Record<string, number> }
  orders: { send: { id: number; line: number }; cancel: number }
  dispatch: number
  user: number
  category: number
  spareCategory: number
  product: number
  spareProduct: number
  channel: string
  topups: { pending: string; review: string }
  delivery: number
}

/** The payment gateway of the sweeps: the simulator's links, and one channel of its own to import. */
export const sweepGateway: PaymentGateway = {
  name: 'simulator',
  async createPayment(request) {
    const reference = `SIM${request.invoice}`
    return { reference, paymentUrl: `http://127.0.0.1/sim/pay/${reference}`, fee: request.fee, expiresAt: request.expiresAt }
  },
  async listChannels() {
    const fees = { fee_flat: 750, fee_percent: 0.7, min_amount: 10_000, max_amount: 5_000_000 }
    return [{ code: 'SWGATE', name: 'Gateway QRIS', type: 'qris', ...fees, active: true }]
  },
}

/** A store with something for every operator write to act on, built through the API (and SQL where only a crash or a gateway gets there). */
export async function sweepWorld(app: App, ctx: AppContext, up: Upstreams): Promise<SweepWorld> {
  const made: string[] = []
  const a = await createReseller(app, { name: 'Sweep A', balance: 10_000_000 })
  const b = await createReseller(app, { name: 'Sweep B' })
  made.push(a.apiKey, b.apiKey)
  const secret = await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: b.headers })
  made.push(secret.json().data.webhook_secret)

  const provider = 'sw-dgf'
  await addSimulatedProvider(app, up, 'digiflazz', provider)
  await admin(app, 'POST', `/providers/${provider}/sync?force=true`)
  const { created } = await admin(app, 'POST', `/providers/${provider}/import`, { codes: ['ml86', 'ml172', 'tsel10'] })
  const imported = Object.fromEntries(created.map((c: { code: string; id: number }) => [c.code, c.id])) as Record<string, number>
  // Two jumps past SUPPLIER_PRICE_JUMP_PERCENT: held, one for approve and one for reject.
  up.digiflazz.priceLists.prepaid.change('ml86', { price: 39_000 })
  up.digiflazz.priceLists.prepaid.change('ml172', { price: 10_000 })
  await admin(app, 'POST', `/providers/${provider}/sync?force=true`)

  const manual = await createItem(app, { order_process: 'manual', stock: 100, price: 5_000 })
  const auto = await createAutoItem(app, 1)
  const h2h = await createItem(app, { order_process: 'h2h', price: 12_000, unlimited_stock: true, provider, provider_code: 'tsel10' })
  const ordered = async (ref: string, cart: { item_id: number; quantity: number; note?: string }) => {
    const res = await buy(app, a, ref, [cart])
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.id as number
  }
  const send = await ordered('sweep-send', { item_id: manual.id, quantity: 1, note: 'buyer@example.com' })
  const line = (await admin(app, 'GET', `/transactions/${send}`)).items[0].id as number
  const cancel = await ordered('sweep-cancel', { item_id: manual.id, quantity: 1, note: 'buyer@example.com' })
  const upstream = await ordered('sweep-h2h', { item_id: h2h.id, quantity: 1, note: '081234567890' })
  // As after a crash between the send and its answer: a request only an operator can settle.
  const [dispatch] = await sql<{ id: number }>`UPDATE dispatches SET status = 'review', message = 'sweep'
    WHERE order_id = ${upstream} RETURNING id`
    .execute(ctx.db)
    .then((r) => r.rows)

  const invite = await admin(app, 'POST', `/resellers/${a.id}/users`, { email: 'owner-a@sweep.example', role: 'owner' })
  made.push(String(invite.invite_url).split('/').at(-1)!)
  // As after the invite was accepted: the removal logs a row that had a password.
  await ctx.db
    .updateTable('reseller_users')
    .set({ password_hash: await hashPassword(SECRETS.password), invite_hash: null })
    .where('id', '=', invite.id)
    .execute()

  const category = await admin(app, 'POST', '/categories', { name: 'Sweep Games' })
  const spareCategory = await admin(app, 'POST', '/categories', { name: 'Sweep Spare' })
  const product = await admin(app, 'POST', '/products', { name: 'Sweep Voucher', category_id: category.id })
  const spareProduct = await admin(app, 'POST', '/products', { name: 'Sweep Empty', category_id: category.id })

  const channel = 'SWQRIS'
  await admin(app, 'POST', '/channels', { code: channel, name: 'Sweep QRIS', type: 'qris', fee_flat: 500, fee_percent: 0.5 })
  const topUp = async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/balance', headers: a.headers, payload: { amount: 50_000, channel } })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.reference as string
  }
  const pending = await topUp()
  const review = await topUp()
  // As after the gateway's PAID with another total.
  await sql`UPDATE topups SET status = 'review', gateway_status = 'PAID', paid_total = 1, review_reason = 'sweep'
             WHERE reference = ${review}`.execute(ctx.db)
  const [delivery] = await ctx.db
    .insertInto('webhook_deliveries')
    .values({ account_id: a.id, event: 'order.paid', webhook_id: 'evt_sweep', status: 'failed', attempts: '[]' })
    .returning('id')
    .execute()

  return {
    a,
    b,
    made,
    provider,
    items: { manual: manual.id, auto: auto.id, h2h: h2h.id, imported },
    orders: { send: { id: send, line }, cancel },
    dispatch: dispatch!.id,
    user: invite.id,
    category: category.id,
    spareCategory: spareCategory.id,
    product: product.id,
    spareProduct: spareProduct.id,
    channel,
    topups: { pending, review },
    delivery: delivery!.id,
  }
}

const heldOf = async (ctx: AppContext, code: string) =>
  (await sql<{ id: number }>`SELECT id FROM supplier_changes WHERE kind = 'held' AND hold_open AND code = ${code}`.execute(ctx.db)).rows[0]
    ?.id ?? 999_999

type CallOf = (w: SweepWorld, ctx: AppContext, up: Upstreams) => AdminCall | Promise<AdminCall>

/**
 * One call of each operator write that succeeds on the sweep world, by operation id, in an order
 * where each finds what it needs (a delete after its create). A write route missing here fails the
 * sweeps by name: add its call.
 */
export const WRITE_CALLS: [string, CallOf][] = [
  ['adminCreateReseller', () => ({ method: 'POST', url: '/resellers', payload: { name: 'Sweep New', email: 'new@sweep.example' } })],
  ['adminUpdateReseller', (w) => ({ method: 'PATCH', url: `/resellers/${w.b.id}`, payload: { max_active_locks: 7 } })],
  ['adminRotateApiKey', (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/api-keys` })],
  ['adminAdjustBalance', (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/balance`, payload: { amount: 1_234, reason: 'sweep' } })],
  [
    'adminInviteDashboardUser',
    (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/users`, payload: { email: 'b@sweep.example', role: 'staff' } }),
  ],
  ['adminRemoveDashboardUser', (w) => ({ method: 'DELETE', url: `/resellers/${w.a.id}/users/${w.user}` })],
  [
    'adminUpdateWebhook',
    (w) => ({
      method: 'PUT',
      url: `/resellers/${w.b.id}/webhook`,
      payload: { callback_url: 'https://shop.example/hook', webhook_enabled: true },
    }),
  ],
  ['adminRetryWebhookDelivery', (w) => ({ method: 'POST', url: `/resellers/${w.a.id}/webhook-deliveries/${w.delivery}/retry` })],
  ['adminCreateCategory', () => ({ method: 'POST', url: '/categories', payload: { name: 'Sweep Created' } })],
  ['adminUpdateCategory', (w) => ({ method: 'PATCH', url: `/categories/${w.category}`, payload: { name: 'Sweep Games 2' } })],
  ['adminDeleteCategory', (w) => ({ method: 'DELETE', url: `/categories/${w.spareCategory}` })],
  ['adminCreateProduct', (w) => ({ method: 'POST', url: '/products', payload: { name: 'Sweep Product', category_id: w.category } })],
  ['adminUpdateProduct', (w) => ({ method: 'PATCH', url: `/products/${w.product}`, payload: { name: 'Sweep Voucher 2' } })],
  ['adminDeleteProduct', (w) => ({ method: 'DELETE', url: `/products/${w.spareProduct}` })],
  [
    'adminCreateItem',
    () => ({
      method: 'POST',
      url: '/items',
      payload: { product_name: 'Sweep Made', name: 'Made 1', sku: `SWEEP-MADE-${Date.now()}`, price: 3_000, order_process: 'manual' },
    }),
  ],
  ['adminUpdateItem', (w) => ({ method: 'PATCH', url: `/items/${w.items.manual}`, payload: { price: 5_500 } })],
  ['adminAddLicenses', (w) => ({ method: 'POST', url: `/items/${w.items.auto}/licenses`, payload: { licenses: [SECRETS.license] } })],
  [
    'adminPutItemSources',
    (w) => ({
      method: 'PUT',
      url: `/items/${w.items.imported.tsel10}/sources`,
      payload: { sources: [{ provider: w.provider, code: 'tsel10', priority: 3 }] },
    }),
  ],
  [
    'adminCreateProvider',
    () => ({
      method: 'POST',
      url: '/providers',
      payload: { code: 'sw-new', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1', username: 'sweep', api_key: SECRETS.providerKey },
    }),
  ],
  [
    'adminUpdateProvider',
    () => ({ method: 'PATCH', url: '/providers/sw-new', payload: { api_key: SECRETS.newProviderKey, active: false } }),
  ],
  [
    'adminSyncSupplier',
    (w, _ctx, up) => {
      up.digiflazz.priceLists.prepaid.change('tsel10', { price: 10_400 })
      return { method: 'POST', url: `/providers/${w.provider}/sync?force=true` }
    },
  ],
  ['adminImportSupplierProducts', (w) => ({ method: 'POST', url: `/providers/${w.provider}/import`, payload: { codes: ['ff140'] } })],
  [
    'adminApproveHeldPrice',
    async (w, ctx) => ({ method: 'POST', url: `/providers/${w.provider}/held/${await heldOf(ctx, 'ml86')}/approve` }),
  ],
  [
    'adminRejectHeldPrice',
    async (w, ctx) => ({ method: 'POST', url: `/providers/${w.provider}/held/${await heldOf(ctx, 'ml172')}/reject` }),
  ],
  [
    'adminPutPricingRule',
    (w) => ({ method: 'PUT', url: '/pricing-rules', payload: { scope: 'provider', provider: w.provider, percent: 5, round_to: 100 } }),
  ],
  [
    'adminDeletePricingRule',
    async (_w, ctx) => {
      const rule = await ctx.db.selectFrom('pricing_rules').select('id').orderBy('id', 'desc').executeTakeFirst()
      return { method: 'DELETE', url: `/pricing-rules/${rule?.id ?? 999_999}` }
    },
  ],
  [
    'adminSendManualLine',
    (w) => ({
      method: 'POST',
      url: `/transactions/${w.orders.send.id}/items/${w.orders.send.line}/send`,
      payload: { product_license: SECRETS.manualLicense },
    }),
  ],
  ['adminCancelTransaction', (w) => ({ method: 'POST', url: `/transactions/${w.orders.cancel}/cancel`, payload: { reason: 'sweep' } })],
  [
    'adminResolveDispatch',
    (w) => ({ method: 'POST', url: `/dispatches/${w.dispatch}/resolve`, payload: { outcome: 'failed', reason: 'sweep' } }),
  ],
  [
    'adminCreateChannel',
    () => ({ method: 'POST', url: '/channels', payload: { code: 'SWVA', name: 'Sweep VA', type: 'va', fee_flat: 4_000 } }),
  ],
  ['adminUpdateChannel', (w) => ({ method: 'PATCH', url: `/channels/${w.channel}`, payload: { fee_flat: 1_000 } })],
  ['adminSyncChannels', () => ({ method: 'POST', url: '/channels/sync' })],
  ['adminPayTopup', (w) => ({ method: 'POST', url: `/topups/${w.topups.pending}/pay` })],
  [
    'adminResolveTopup',
    (w) => ({
      method: 'POST',
      url: `/topups/${w.topups.review}/resolve`,
      payload: { credit_amount: 50_000, reason: 'sweep: bank statement' },
    }),
  ],
]

/** A read's URL with its path parameters filled from the world: ids that exist where the route reads one row. */
export function readUrl(path: string, w: SweepWorld): string {
  const byResource: Record<string, string> = {
    resellers: String(w.a.id),
    items: String(w.items.manual),
    providers: w.provider,
    transactions: String(w.orders.send.id),
    categories: String(w.category),
    products: String(w.product),
    channels: w.channel,
    topups: w.topups.pending,
    dispatches: String(w.dispatch),
    held: '1',
    'webhook-deliveries': String(w.delivery),
    users: String(w.user),
  }
  const segments = path.replace('/api/admin/v1', '').split('/')
  return segments.map((s, i) => (/^\{\w+\}$/.test(s) ? (byResource[segments[i - 1]!] ?? '1') : s)).join('/')
}
