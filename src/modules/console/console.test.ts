import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import type { App } from '../../http/server.js'
import type { AppContext } from '../../context.js'

describe('operator console: sessions', () => {
  it('answers nothing without a session, signs in with the admin token, and out again', { timeout: 120_000 }, async () => {
    const { app, ctx } = await createTestApp()
    const stranger = visitor(app)
    const refused = await stranger.get('/console')
    expect(refused.status).toBe(303)
    expect(refused.location).toBe('/console/sign-in')
    expect((await stranger.get('/console/resellers')).status).toBe(303)

    await stranger.get('/console/sign-in')
    const wrong = await stranger.post('/console/sign-in', { token: 'not-the-token-at-all-000' })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toContain('That is not the admin token.')

    const operator = await signedIn(app)
    const session = operator.cookies.get('console_session')!
    const overview = await operator.get('/console')
    expect(overview.status).toBe(200)
    expect(overview.body).toContain('Sales today')
    expect(await ctx.db.selectFrom('console_sessions').select('token_hash').execute()).toHaveLength(1)

    expect((await operator.post('/console/sign-out', {})).location).toBe('/console/sign-in')
    expect(await ctx.db.selectFrom('console_sessions').select('token_hash').execute()).toHaveLength(0)
    // The old cookie, replayed, is refused: the session is gone server-side.
    const replay = await app.inject({ method: 'GET', url: '/console', headers: { cookie: `console_session=${session}` } })
    expect(replay.statusCode).toBe(303)
  })

  it(
    'ends a session at its expiry: pages send the cookie to sign-in, without data, and forms change nothing',
    { timeout: 120_000 },
    async () => {
      const { app, ctx } = await createTestApp()
      const shop = await createReseller(app, { name: 'Toko Kedaluwarsa', balance: 5_000 })
      const operator = await signedIn(app)
      const page = await operator.get(`/console/resellers/${shop.id}`)
      expect([page.status, page.body.includes('Toko Kedaluwarsa')]).toEqual([200, true])

      // The session's lifetime is the database's to judge, in every process.
      await ctx.db
        .updateTable('console_sessions')
        .set({ expires_at: sql<Date>`now() - interval '1 second'` })
        .execute()
      for (const url of ['/console', `/console/resellers/${shop.id}`, '/console/overview/figures', '/console/items']) {
        const res = await operator.get(url)
        expect([res.status, res.location], url).toEqual([303, '/console/sign-in'])
        expect(res.body, url).not.toContain('Toko Kedaluwarsa')
        expect(res.body, url).not.toContain('Rp')
      }
      const credit = await operator.post(`/console/resellers/${shop.id}/balance`, { amount: '1000', reason: 'after expiry' })
      expect([credit.status, credit.location]).toEqual([303, '/console/sign-in'])
      expect((await ctx.db.selectFrom('accounts').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow()).balance).toBe(
        5_000,
      )
    },
  )
})

/** Every POST route of the console, from the app's own route table (a new form cannot be missed). */
function consolePostRoutes(app: App): string[] {
  const routes: string[] = []
  const path: string[] = []
  for (const line of app.printRoutes({ method: 'POST', commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line)
    if (!m) continue
    path.length = m[1].length / 4
    path.push(m[2])
    if (m[3]?.split(', ').includes('POST') && path.join('').startsWith('/console')) routes.push(path.join(''))
  }
  return routes
}

// Each table a console form can write to, whole: a refused form leaves every row as it was.
const TABLES = [
  'accounts',
  'api_keys',
  'ledger_entries',
  'orders',
  'order_lines',
  'outbox_events',
  'categories',
  'products',
  'items',
  'licenses',
  'providers',
  'payment_channels',
  'topups',
  'webhook_settings',
  'webhook_deliveries',
  'dispatches',
  'console_sessions',
  'supplier_syncs',
  'supplier_products',
  'pricing_rules',
  'item_sources',
  'operators',
  'operator_tokens',
  'operator_sign_in_failures',
] as const
const snapshot = async (ctx: AppContext) =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (t) => [t, (await sql<object>`SELECT * FROM ${sql.table(t)} ORDER BY 1`.execute(ctx.db)).rows] as const),
    ),
  )

describe('operator console: forms change nothing without a session or with a wrong CSRF token', () => {
  it('refuses every POST route of the console and leaves every table as it was', { timeout: 180_000 }, async () => {
    const { app, ctx } = await createTestApp()
    const shop = await createReseller(app, { balance: 50_000 })
    const item = await createItem(app, { order_process: 'manual', stock: 5, price: 10_000 })
    const order = (await buy(app, shop, 'csrf-1', [{ item_id: item.id, quantity: 1 }])).json().data
    const line = (await admin(app, 'GET', `/transactions/${order.id}`)).items[0].id
    const category = await admin(app, 'POST', '/categories', { name: 'Forgeable' })
    const product = await admin(app, 'POST', '/products', { name: 'Empty', category_id: category.id })
    await admin(app, 'POST', '/providers', { code: 'csrf-prov', kind: 'digiflazz', base_url: 'https://digi.example/v1' })
    await admin(app, 'POST', '/channels', { code: 'QRIS', name: 'QRIS', type: 'qris' })
    const topup = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: shop.headers,
      payload: { amount: 10_000, channel: 'QRIS' },
    })
    const reference = topup.json().data.reference as string
    const [delivery] = await ctx.db
      .insertInto('webhook_deliveries')
      .values({ account_id: shop.id, event: 'order.paid', webhook_id: 'evt_csrf', status: 'failed', attempts: '[]' })
      .returning('id')
      .execute()

    const ids: Record<string, string> = {
      resellers: String(shop.id),
      orders: String(order.id),
      items: String(item.id),
      categories: String(category.id),
      products: String(product.id),
      providers: 'csrf-prov',
      channels: 'QRIS',
      dispatches: '1',
      pricing: '1',
      team: '1',
      tokens: '1',
    }
    const urlOf = (route: string) =>
      route
        .replace(/\/(\w+)\/:(id|code)/g, (_m, segment: string) => `/${segment}/${ids[segment]}`)
        .replace(':line', String(line))
        .replace(':delivery', String(delivery.id))
        .replace(':user', '1')
        .replace(':reference', encodeURIComponent(reference))
        .replace(':token', '1')
    const routes = consolePostRoutes(app)
    expect(routes.length).toBeGreaterThan(25)
    for (const route of routes) expect(FORMS, `a forged form for ${route}`).toHaveProperty([route])

    const before = await snapshot(ctx)
    // No session: a forged form is sent to sign-in, whatever token it carries (sign-in and an invitation are open, below).
    const stranger = visitor(app)
    await stranger.get('/console/sign-in')
    for (const route of routes.filter((r) => !OPEN_ROUTES.includes(r))) {
      const res = await stranger.post(urlOf(route), formOf(route, category.id))
      expect([res.status, res.location], route).toEqual([303, '/console/sign-in'])
    }
    // A session, but the token of another visitor, none, or a made-up one: refused before the form's fields are read.
    const operator = await signedIn(app)
    const withSession = await snapshot(ctx)
    for (const csrf of [stranger.csrf, '', 'x'.repeat(40)]) {
      for (const route of routes) {
        const res = await operator.post(urlOf(route), formOf(route, category.id), { csrf })
        expect(res.status, `${route} with ${JSON.stringify(csrf)}`).toBe(403)
        expect(res.body, route).toContain('INVALID_CSRF_TOKEN')
      }
    }
    expect(await snapshot(ctx)).toEqual(withSession)
    expect({ ...withSession, console_sessions: [] }).toEqual({ ...before, console_sessions: [] })

    // The same form with the page's own token goes through: the refusals above were the token's doing.
    await operator.get(`/console/resellers/${shop.id}`)
    expect((await operator.post(`/console/resellers/${shop.id}/balance`, { amount: '1000', reason: 'goodwill' })).status).toBe(303)
    expect((await ctx.db.selectFrom('accounts').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow()).balance).toBe(41_000)
  })
})

// Routes anyone may post to: the sign-in and an invitation's link.
const OPEN_ROUTES = ['/console/sign-in', '/console/invite/:token']

// A plausible form per route, so each refusal above is the token's and not the fields'.
const FORMS: Record<string, Record<string, string>> = {
  '/console/sign-in': { token: ADMIN_TOKEN },
  '/console/sign-in/code': { code: '123456' },
  '/console/enrol': { code: '123456' },
  '/console/invite/:token': { name: 'Forged', password: 'forged-password', password_again: 'forged-password' },
  '/console/first-owner': { email: 'forged@example.com', name: 'Forged', password: 'forged-password', password_again: 'forged-password' },
  '/console/team/invite': { email: 'forged@example.com', name: 'Forged', role: 'owner' },
  '/console/team/:id': { role: 'viewer' },
  '/console/team/:id/remove': {},
  '/console/team/:id/reset-second-factor': {},
  '/console/team/:id/tokens/:token/revoke': {},
  '/console/me/tokens': { name: 'forged' },
  '/console/me/tokens/:id/revoke': {},
  '/console/me/second-factor': { code: '123456' },
  '/console/sign-out': {},
  '/console/resellers': { name: 'forged' },
  '/console/resellers/:id/balance': { amount: '1000000', reason: 'forged' },
  '/console/resellers/:id/api-key': {},
  '/console/resellers/:id/status': { status: 'suspended' },
  '/console/resellers/:id/limits': { max_active_locks: '1', ip_allowlist: '10.0.0.1' },
  '/console/resellers/:id/webhook': { callback_url: 'https://forged.example/hook' },
  '/console/resellers/:id/deliveries/:delivery/retry': {},
  '/console/resellers/:id/users': { email: 'forged@shop.example', role: 'owner' },
  '/console/resellers/:id/users/:user/remove': {},
  '/console/orders/:id/lines/:line/send': { product_license: 'forged' },
  '/console/orders/:id/cancel': { reason: 'forged' },
  '/console/dispatches/:id/resolve': { outcome: 'failed', reason: 'forged' },
  '/console/items': { product_name: 'Forged', name: 'forged', price: '1', order_process: 'manual' },
  '/console/items/:id': { name: 'forged', price: '1' },
  '/console/items/:id/active': { active: 'false' },
  '/console/items/:id/allow-loss': { allow_loss: 'true' },
  '/console/items/:id/licenses': { licenses: 'FORGED-1' },
  '/console/providers': { code: 'forged', kind: 'digiflazz', base_url: 'https://forged.example/v1' },
  '/console/providers/:code/active': { active: 'false' },
  '/console/providers/:code/thresholds': { balance_alert_below: '1000', balance_alert_hours: '5' },
  '/console/alert-channels': { email_to: 'forged@example.com', webhook_url: 'https://forged.example/alerts' },
  '/console/categories': { name: 'forged' },
  '/console/categories/:id': { name: 'forged' },
  '/console/categories/:id/delete': {},
  '/console/products': { name: 'forged', category_id: 'CATEGORY' },
  '/console/products/:id': { name: 'forged', category_id: 'CATEGORY' },
  '/console/products/:id/delete': {},
  '/console/topups/:reference/pay': {},
  '/console/topups/:reference/resolve': { credit: 'requested', reason: 'forged' },
  '/console/channels': { code: 'FORGED', name: 'forged', type: 'qris' },
  '/console/channels/:code': { name: 'forged', type: 'va', fee_flat: '99999' },
  '/console/channels/:code/active': { active: 'false' },
  '/console/channels/sync': {},
  '/console/bank-mutations/:id/match': { topup_reference: 'forged' },
  '/console/bank-mutations/:id/ignore': {},
  '/console/bank-mutations/import': { channel: 'FORGED', csv: 'date,description,amount,type\n2026-12-06,forged,1000,CR\n' },
  '/console/complaints/:id/reply': { message: 'forged' },
  '/console/complaints/:id/resend': { mode: 'manual', product_license: 'FORGED' },
  '/console/complaints/:id/recheck': {},
  '/console/complaints/:id/refund': {},
  '/console/complaints/:id/reject': { reason: 'forged' },
  '/console/providers/:code/sync': {},
  '/console/providers/:code/balance/refresh': {},
  '/console/providers/:code/held/:id/approve': {},
  '/console/providers/:code/held/:id/reject': {},
  '/console/pricing': { scope: 'provider', provider: 'csrf-prov', percent: '50' },
  '/console/pricing/:id/delete': {},
  '/console/items/:id/sources': { provider_0: 'csrf-prov', code_0: 'forged', priority_0: '1' },
  '/console/price-levels': { code: 'forged', name: 'Forged' },
  '/console/price-levels/:code': { name: 'Forged' },
  '/console/price-levels/:code/rules': { scope_0: 'all', percent_0: '-50' },
  '/console/items/:id/level-prices': { level: 'reseller', price: '1' },
  '/console/resellers/:id/level': { price_level: 'reseller' },
}
const formOf = (route: string, categoryId: number) =>
  Object.fromEntries(Object.entries(FORMS[route] ?? {}).map(([k, v]) => [k, v === 'CATEGORY' ? String(categoryId) : v]))
