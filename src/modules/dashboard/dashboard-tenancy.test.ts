import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { dashboardRoutes, dashboardVisitor } from '../../../test/dashboard.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// docs/design.md §13: another account's anything is a 404 in the dashboard too. Swept over every dashboard route
// with a path parameter, so a route added later must say here whose resource its parameter names.

const { app, ctx } = await createTestApp()
const victim = await createReseller(app, { name: 'Victim Shop', balance: 1_000_000 })
const intruder = await createReseller(app, { name: 'Intruder Shop', balance: 1_000_000 })
const item = await createAutoItem(app, 3, { price: 2_500 })
const bought = await buy(app, victim, 'victim-ref-1', [{ item_id: item.id, quantity: 1 }])
const order = bought.json().data as { invoice: string; ref_id: string }
// A delivery of the victim's (port 9 refuses at once) and a user of the victim's.
await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: victim.headers })
await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: victim.headers, payload: { callback_url: 'http://127.0.0.1:9/hook' } })
await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: victim.headers })
const [delivery] = await ctx.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', victim.id).execute()
const locked = await createItem(app, { order_process: 'manual', price: 1_000, stock: 10 })
const lockRes = await app.inject({
  method: 'POST',
  url: '/api/v1/item/lock',
  headers: victim.headers,
  payload: { item_id: locked.id, quantity: 1 },
})
const victimLock = lockRes.json().data as { lock_token: string }
const victimOwner = await dashboardVisitor(app, victim.id, 'owner@victim.example')
// A complaint of the victim's, opened from its transaction page.
const [victimLine] = await ctx.db.selectFrom('order_lines').select('id').where('order_id', '=', bought.json().data.id).execute()
await victimOwner.get(`/dashboard/transactions/${order.invoice}`)
const opened = await victimOwner.post(`/dashboard/transactions/${order.invoice}/complaints`, {
  order_item_id: String(victimLine!.id),
  reason: 'other',
  message: 'victim complaint',
})
const victimComplaint = opened.location!.split('/').pop()!.split('?')[0]!
const victimUser = await ctx.db
  .selectFrom('reseller_users')
  .select('id')
  .where('email', '=', 'owner@victim.example')
  .executeTakeFirstOrThrow()

/** Each parameterised route and the victim's value for it (by invoice and by ref_id where a ref is taken). */
const OWNED: Record<string, string[]> = {
  'GET /dashboard/transactions/:ref': [order.invoice, order.ref_id],
  'POST /dashboard/webhook/deliveries/:id/retry': [String(delivery!.id)],
  'POST /dashboard/users/:id/remove': [String(victimUser.id)],
  'POST /dashboard/locks/:token/release': [victimLock.lock_token],
  'POST /dashboard/transactions/:ref/complaints': [order.invoice, order.ref_id],
  'GET /dashboard/complaints/:id': [victimComplaint],
  'POST /dashboard/complaints/:id/messages': [victimComplaint],
  // Open pages: a token, not an account's resource (an unknown one is a 404 like any other).
  'GET /dashboard/invite/:token': ['no-such-invite'],
  'POST /dashboard/invite/:token': ['no-such-invite'],
}

describe('the dashboard is tenant-scoped', () => {
  it('answers 404 for every route naming another account’s resource, and changes nothing', async () => {
    const parameterised = dashboardRoutes(app).filter((r) => r.includes(':'))
    expect(parameterised.length).toBeGreaterThanOrEqual(5)
    for (const route of parameterised) expect(OWNED, `whose resource does ${route} name?`).toHaveProperty([route])
    const intruderOwner = await dashboardVisitor(app, intruder.id, 'owner@intruder.example')
    const before = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', victim.id).execute()
    const complaintsBefore = await ctx.db.selectFrom('complaint_messages').selectAll().execute()
    for (const route of parameterised) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST', string]
      for (const value of OWNED[route]!) {
        const url = pattern.replace(/:\w+/, encodeURIComponent(value))
        await intruderOwner.get('/dashboard')
        const res =
          method === 'GET'
            ? await intruderOwner.get(url)
            : await intruderOwner.post(url, { password: 'x'.repeat(12), password_again: 'x'.repeat(12) })
        expect(res.status, `${route} with ${value}`).toBe(404)
        expect(res.body, route).not.toContain(order.invoice)
      }
    }
    expect(await ctx.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', victim.id).execute()).toEqual(before)
    expect(await ctx.db.selectFrom('complaint_messages').selectAll().execute()).toEqual(complaintsBefore)
    const lockNow = await ctx.db
      .selectFrom('stock_locks')
      .select('status')
      .where('token', '=', victimLock.lock_token)
      .executeTakeFirstOrThrow()
    expect(lockNow.status).toBe('active')
    // The account chooser names a user in its form, not its path: another account's is a 404 too.
    await intruderOwner.get('/dashboard/accounts')
    const chosen = await intruderOwner.post('/dashboard/accounts', { user_id: String(victimUser.id) })
    expect(chosen.status).toBe(404)
    expect((await intruderOwner.get('/dashboard')).body).not.toContain('Victim Shop')
    // The victim's owner is still there and signed in.
    expect((await victimOwner.get('/dashboard')).status).toBe(200)
  })

  it('lists only the account’s own money, orders, deliveries and users', async () => {
    const intruderOwner = await dashboardVisitor(app, intruder.id, 'lists@intruder.example')
    const search = await intruderOwner.get(`/dashboard/transactions?q=${order.invoice}`)
    expect([search.status, search.body.includes('id="not-found"')]).toEqual([200, true])
    for (const url of [
      '/dashboard',
      '/dashboard/ledger',
      '/dashboard/ledger.csv',
      '/dashboard/transactions',
      '/dashboard/complaints',
      '/dashboard/webhook',
      '/dashboard/users',
    ]) {
      const res = await intruderOwner.get(url)
      expect(res.status, url).toBe(200)
      for (const foreign of [victimLock.lock_token, order.invoice, 'owner@victim.example', 'Victim Shop', '/dashboard/webhook/deliveries/'])
        expect(res.body, `${url}: ${foreign}`).not.toContain(foreign)
    }
  })
})
