import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

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
})

describe('operator console: forms change nothing without a session or with a wrong CSRF token', () => {
  it('leaves the balance, the accounts and the order as they were', { timeout: 120_000 }, async () => {
    const { app, ctx } = await createTestApp()
    const shop = await createReseller(app, { balance: 50_000 })
    const item = await createItem(app, { order_process: 'manual', stock: 5, price: 10_000 })
    const order = (await buy(app, shop, 'csrf-1', [{ item_id: item.id, quantity: 1 }])).json().data
    const accountsBefore = await ctx.db.selectFrom('accounts').select(['id', 'balance', 'status']).orderBy('id').execute()

    // No session: a forged form is sent to sign-in, whatever token it carries.
    const stranger = visitor(app)
    await stranger.get('/console/sign-in')
    for (const [url, form] of FORMS(shop.id, order.id)) {
      const res = await stranger.post(url, form)
      expect(res.status, url).toBe(303)
      expect(res.location, url).toBe('/console/sign-in')
    }
    // A session, but the token of another visitor, or none.
    const operator = await signedIn(app)
    for (const csrf of [stranger.csrf, '', 'x'.repeat(40)]) {
      for (const [url, form] of FORMS(shop.id, order.id)) {
        const res = await operator.post(url, form, { csrf })
        expect(res.status, `${url} with ${JSON.stringify(csrf)}`).toBe(403)
        expect(res.body).toContain('INVALID_CSRF_TOKEN')
      }
    }
    expect(await ctx.db.selectFrom('accounts').select(['id', 'balance', 'status']).orderBy('id').execute()).toEqual(accountsBefore)
    expect((await ctx.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe('paid')
    expect(await ctx.db.selectFrom('ledger_entries').select('id').where('account_id', '=', shop.id).execute()).toHaveLength(2)

    // The same form with the page's own token goes through: the refusals above were the token's doing.
    await operator.get(`/console/resellers/${shop.id}`)
    expect((await operator.post(`/console/resellers/${shop.id}/balance`, { amount: '1000', reason: 'goodwill' })).status).toBe(303)
    expect((await ctx.db.selectFrom('accounts').select('balance').where('id', '=', shop.id).executeTakeFirstOrThrow()).balance).toBe(41_000)
  })
})

const FORMS = (accountId: number, orderId: number): [string, Record<string, string>][] => [
  [`/console/resellers/${accountId}/balance`, { amount: '1000000', reason: 'forged' }],
  [`/console/resellers/${accountId}/status`, { status: 'suspended' }],
  ['/console/resellers', { name: 'forged' }],
  [`/console/orders/${orderId}/cancel`, { reason: 'forged' }],
]
