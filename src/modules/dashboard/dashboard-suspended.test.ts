import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { PASSWORD, dashboardRoutes, dashboardVisitor, invite } from '../../../test/dashboard.js'
import { createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// A suspended account's people can read but not act: every state-changing dashboard route is swept
// from the router, so a route added later must say here what suspension does to it.

const { app, ctx } = await createTestApp()
const shop = await createReseller(app, { name: 'Paused Shop', balance: 500_000 })
await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: shop.headers })
await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: shop.headers, payload: { callback_url: 'http://127.0.0.1:9/hook' } })
await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: shop.headers })
const [delivery] = await ctx.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', shop.id).execute()
const item = await createItem(app, { order_process: 'manual', price: 1_000, stock: 10 })
const lock = await app.inject({
  method: 'POST',
  url: '/api/v1/item/lock',
  headers: shop.headers,
  payload: { item_id: item.id, quantity: 1 },
})
const lockToken = lock.json().data.lock_token as string
await ctx.db.insertInto('payment_channels').values({ code: 'PAUSEVA', name: 'Pause VA', type: 'va', fee_flat: 0 }).execute()
const owner = await dashboardVisitor(app, shop.id, 'owner@paused.example')
const colleague = await invite(app, shop.id, 'staff@paused.example', 'staff')
// Two purchases: one whose line takes a complaint, one with a complaint open to reply to.
const lineOf = async (ref: string) => {
  const bought = await buy(app, shop, ref, [{ item_id: item.id, quantity: 1 }])
  const [line] = await ctx.db.selectFrom('order_lines').select('id').where('order_id', '=', bought.json().data.id).execute()
  return { invoice: bought.json().data.invoice as string, line: String(line!.id) }
}
const toComplainOf = await lineOf('paused-1')
const complained = await lineOf('paused-2')
await owner.get(`/dashboard/transactions/${complained.invoice}`)
const complaintPath = (
  await owner.post(`/dashboard/transactions/${complained.invoice}/complaints`, {
    order_item_id: complained.line,
    reason: 'not_received',
    message: 'belum masuk',
  })
).location!.split('?')[0]!

/** A form that would succeed on an active account, for each state-changing route. */
const FORMS: Record<string, { url: string; form: Record<string, string> }> = {
  'POST /dashboard/api-key': { url: '/dashboard/api-key', form: {} },
  'POST /dashboard/allow-list': { url: '/dashboard/allow-list', form: { ip_allowlist: '10.0.0.1', add_mine: 'on' } },
  'POST /dashboard/webhook': { url: '/dashboard/webhook', form: { callback_url: '' } },
  'POST /dashboard/webhook/secret': { url: '/dashboard/webhook/secret', form: {} },
  'POST /dashboard/webhook/test': { url: '/dashboard/webhook/test', form: {} },
  'POST /dashboard/webhook/deliveries/:id/retry': { url: `/dashboard/webhook/deliveries/${delivery!.id}/retry`, form: {} },
  'POST /dashboard/topup': { url: '/dashboard/topup', form: { amount: '150000', channel: 'PAUSEVA' } },
  'POST /dashboard/users': { url: '/dashboard/users', form: { email: 'new@paused.example', role: 'staff' } },
  'POST /dashboard/users/:id/remove': { url: `/dashboard/users/${colleague.id}/remove`, form: {} },
  'POST /dashboard/locks/:token/release': { url: `/dashboard/locks/${lockToken}/release`, form: {} },
  'POST /dashboard/transactions/:ref/complaints': {
    url: `/dashboard/transactions/${toComplainOf.invoice}/complaints`,
    form: { order_item_id: toComplainOf.line, reason: 'other', message: 'tolong cek' },
  },
  'POST /dashboard/complaints/:id/messages': { url: `${complaintPath}/messages`, form: { message: 'masih belum', from: 'complaint' } },
}
/** Still open while suspended: they act on the person, not the account (tested in dashboard.test.ts). */
const PERSONAL = [
  'POST /dashboard/sign-in',
  'POST /dashboard/sign-out',
  'POST /dashboard/password',
  'POST /dashboard/invite/:token',
  'POST /dashboard/accounts',
  'POST /dashboard/sign-in/code',
  'POST /dashboard/two-step',
  'POST /dashboard/two-step/confirm',
  'POST /dashboard/two-step/off',
]

const setStatus = (status: 'active' | 'suspended') =>
  app.inject({
    method: 'PATCH',
    url: `/api/admin/v1/resellers/${shop.id}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { status },
  })

/** Everything of the account a dashboard form could change. */
async function snapshot() {
  // One query shape for each table: all of them carry account_id.
  const of = (table: string) =>
    ctx.db
      .selectFrom(table as 'api_keys')
      .selectAll()
      .where('account_id', '=', shop.id)
      .execute()
  const account = await ctx.db.selectFrom('accounts').selectAll().where('id', '=', shop.id).executeTakeFirstOrThrow()
  const tables = ['api_keys', 'webhook_deliveries', 'topups', 'stock_locks', 'reseller_users', 'webhook_settings', 'complaints'] as const
  return { account, ...Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await of(t)]))) }
}

describe('a suspended account', () => {
  it('refuses every state-changing route with a page saying so, in the page’s language, and changes nothing', async () => {
    const posts = dashboardRoutes(app).filter((r) => r.startsWith('POST '))
    for (const route of posts) expect(route in FORMS || PERSONAL.includes(route), `what does suspension do to ${route}?`).toBe(true)
    expect(Object.keys(FORMS).length).toBeGreaterThanOrEqual(10)
    expect((await setStatus('suspended')).statusCode).toBe(200)
    const before = await snapshot()
    for (const [route, { url, form }] of Object.entries(FORMS)) {
      await owner.get('/dashboard')
      const res = await owner.post(url, form)
      expect(res.status, route).toBe(403)
      expect(res.body, route).toContain('id="suspended-refusal"')
      expect(res.body, route).toContain('Hubungi operator')
    }
    await owner.get('/dashboard?lang=en')
    const english = await owner.post('/dashboard/api-key', {})
    expect([english.status, english.body.includes('Contact the operator')]).toEqual([403, true])
    await owner.get('/dashboard?lang=id')
    expect(await snapshot()).toEqual(before)
  })

  it('still shows every page, with a banner', async () => {
    await setStatus('suspended')
    for (const url of [
      '/dashboard',
      '/dashboard/ledger',
      '/dashboard/api-key',
      '/dashboard/webhook',
      '/dashboard/users',
      '/dashboard/locks',
    ]) {
      const res = await owner.get(url)
      expect([res.status, res.body.includes('id="suspended"')], url).toEqual([200, true])
    }
  })

  it('still lets its people change their own password and sign out', async () => {
    await setStatus('suspended')
    const person = await dashboardVisitor(app, shop.id, 'leaving@paused.example', 'staff')
    await person.get('/dashboard/password')
    const form = { current_password: PASSWORD, password: 'another password', password_again: 'another password' }
    expect((await person.post('/dashboard/password', form)).location).toBe('/dashboard/password?done=changed')
    // An owner's own second factor is the person's too.
    await owner.get('/dashboard/password')
    expect((await owner.post('/dashboard/two-step', {})).location).toBe('/dashboard/two-step')
    expect((await owner.get('/dashboard/two-step')).body).toContain('id="totp-secret"')
    expect((await person.post('/dashboard/sign-out', {})).location).toBe('/dashboard/sign-in')
    expect((await person.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })

  it('acts again once resumed', async () => {
    await setStatus('suspended')
    await owner.get('/dashboard/locks')
    expect((await owner.post(`/dashboard/locks/${lockToken}/release`, {})).status).toBe(403)
    await setStatus('active')
    expect((await owner.get('/dashboard')).body).not.toContain('id="suspended"')
    expect((await owner.post(`/dashboard/locks/${lockToken}/release`, {})).location).toBe('/dashboard/locks?done=released')
    await owner.get('/dashboard/api-key')
    expect(/id="api-key">rk_/.test((await owner.post('/dashboard/api-key', {})).body)).toBe(true)
  })
})
