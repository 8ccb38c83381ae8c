import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { visitor } from '../../../test/console.js'
import { PASSWORD, dashboardVisitor, invite, signIn } from '../../../test/dashboard.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { startReceiver } from '../../../test/receiver.js'
import { minuteClock } from '../../../test/eventually.js'

// docs/design.md §13: users invited by an operator, sign-in, sessions, CSRF and roles, over app.inject.
const { app, ctx } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' })
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }
let n = 0
const email = (who: string) => `${who}-${++n}@toko.example`

describe('invites', () => {
  it('an operator invites; the link sets the password once and signs in', async () => {
    const shop = await createReseller(app, { balance: 125_000 })
    const address = email('Owner').toUpperCase()
    const { path } = await invite(app, shop.id, address)
    const listed = await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${shop.id}/users`, headers: adminHeaders })
    expect(listed.json().data).toMatchObject([{ email: address.toLowerCase(), role: 'owner', status: 'invited' }])

    const v = visitor(app)
    const page = await v.get(path)
    expect(page.body).toContain(address.toLowerCase())
    const short = await v.post(path, { password: 'short', password_again: 'short' })
    expect([short.status, short.body.includes('id="password-error"'), short.body.includes('Minimal 10 karakter')]).toEqual([
      422,
      true,
      true,
    ])
    const mismatch = await v.post(path, { password: PASSWORD, password_again: `${PASSWORD}!` })
    expect([mismatch.status, mismatch.body.includes('password_again') || mismatch.body.includes('Ulangi')]).toEqual([422, true])
    await v.get(path)
    const set = await v.post(path, { password: PASSWORD, password_again: PASSWORD })
    expect([set.status, set.location]).toEqual([303, '/dashboard'])
    const home = await v.get('/dashboard')
    expect(home.status).toBe(200)
    expect(home.body).toContain('Rp 125.000')

    // Used: the link is gone, for the page and the form alike.
    expect((await visitor(app).get(path)).status).toBe(404)
    const again = visitor(app)
    await again.get('/dashboard/sign-in')
    expect((await again.post(path, { password: PASSWORD, password_again: PASSWORD })).status).toBe(404)
    const after = await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${shop.id}/users`, headers: adminHeaders })
    expect(after.json().data[0].status).toBe('active')
  })

  it('refuses a bad email, an unknown account, and an email that is already a user of the account', async () => {
    const shop = await createReseller(app)
    const post = (id: number, payload: object) =>
      app.inject({ method: 'POST', url: `/api/admin/v1/resellers/${id}/users`, headers: adminHeaders, payload })
    const bad = await post(shop.id, { email: 'not-an-email', role: 'staff' })
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['email']])
    expect((await post(999_999, { email: email('x'), role: 'staff' })).json().message).toBe('ACCOUNT_NOT_FOUND')
    const taken = email('taken')
    await dashboardVisitor(app, shop.id, taken)
    const dup = await post(shop.id, { email: taken, role: 'owner' })
    expect([dup.statusCode, dup.json().message]).toEqual([409, 'DUPLICATE'])
  })

  it('an invite past its 72 hours no longer opens', async () => {
    const shop = await createReseller(app)
    const { path, id } = await invite(app, shop.id, email('late'))
    await sql`UPDATE reseller_users SET invite_expires_at = now() - interval '1 second' WHERE id = ${id}`.execute(ctx.db)
    const res = await visitor(app).get(path)
    expect(res.status).toBe(404)
    expect(res.body).toContain('INVITE_NOT_FOUND')
  })
})

describe('sign-in', () => {
  it('signs in with email and password; a wrong one is a 401 page; sign-out ends the session', async () => {
    const shop = await createReseller(app)
    const who = email('signin')
    await dashboardVisitor(app, shop.id, who)
    const wrong = await signIn(app, who, 'wrong password!')
    expect(wrong.res.status).toBe(401)
    expect(wrong.res.body).toContain('id="sign-in-error"')
    const { v, res } = await signIn(app, who.toUpperCase())
    expect([res.status, res.location]).toEqual([303, '/dashboard'])
    expect((await v.get('/dashboard')).status).toBe(200)
    const session = v.cookies.get('dashboard_session')!
    await v.get('/dashboard')
    expect((await v.post('/dashboard/sign-out', {})).location).toBe('/dashboard/sign-in')
    // The old cookie, replayed, no longer opens anything.
    const replay = await app.inject({ method: 'GET', url: '/dashboard', cookies: { dashboard_session: session } })
    expect([replay.statusCode, replay.headers.location]).toEqual([303, '/dashboard/sign-in'])
  })

  it('sends a signed-in visitor from sign-in home, and says so when the account is suspended', async () => {
    const shop = await createReseller(app)
    const v = await dashboardVisitor(app, shop.id, email('suspended'))
    expect((await v.get('/dashboard/sign-in')).location).toBe('/dashboard')
    expect((await v.get('/dashboard')).body).not.toContain('id="suspended"')
    await app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/resellers/${shop.id}`,
      headers: adminHeaders,
      payload: { status: 'suspended' },
    })
    expect((await v.get('/dashboard')).body).toContain('id="suspended"')
  })

  it('changes a password with the current one, ending every other session', async () => {
    const shop = await createReseller(app)
    const who = email('changer')
    const here = await dashboardVisitor(app, shop.id, who, 'staff')
    const elsewhere = (await signIn(app, who)).v
    await here.get('/dashboard/password')
    const wrong = await here.post('/dashboard/password', {
      current_password: 'not it at all',
      password: 'a new password',
      password_again: 'a new password',
    })
    expect([wrong.status, wrong.body.includes('Bukan kata sandi Anda sekarang')]).toEqual([422, true])
    const changed = await here.post('/dashboard/password', {
      current_password: PASSWORD,
      password: 'a new password',
      password_again: 'a new password',
    })
    expect(changed.location).toBe('/dashboard/password?done=changed')
    expect((await here.get('/dashboard')).status).toBe(200)
    expect((await elsewhere.get('/dashboard')).location).toBe('/dashboard/sign-in')
    expect((await signIn(app, who)).res.status).toBe(401)
    expect((await signIn(app, who, 'a new password')).res.status).toBe(303)
  })

  it('sets the session cookie HttpOnly and SameSite=Lax, Secure only in production', async () => {
    const shop = await createReseller(app)
    const who = email('cookie')
    await dashboardVisitor(app, shop.id, who)
    const { res } = await signInRaw(who)
    const cookie = res.cookies.find((c) => c.name === 'dashboard_session')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' })
    expect(cookie.secure).toBeFalsy()

    const production = await createTestApp({}, { appEnv: 'production' })
    const prodShop = await createReseller(production.app)
    await dashboardVisitor(production.app, prodShop.id, who)
    const { res: prodRes } = await signInRaw(who, production.app)
    expect(prodRes.cookies.find((c) => c.name === 'dashboard_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true })
  })

  it('locks an email after ten wrong passwords, whatever the next password is', async () => {
    const shop = await createReseller(app)
    const who = email('guessed')
    await dashboardVisitor(app, shop.id, who)
    for (let i = 0; i < 10; i++) expect((await signIn(app, who, `guess ${i} guess`)).res.status).toBe(401)
    const right = await signIn(app, who)
    expect(right.res.status).toBe(429)
    expect(right.res.body).toContain('id="sign-in-locked"')
    // Another user of the same shop is not locked by it.
    const colleague = email('colleague')
    await dashboardVisitor(app, shop.id, colleague)
    expect((await signIn(app, colleague)).res.status).toBe(303)
  })

  it('counts wrong passwords against the address like every failed authentication', async () => {
    // The limit counts in fixed one-minute windows of the app's clock, which stays in one minute here.
    const strict = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock: minuteClock() })
    const shop = await createReseller(strict.app)
    const who = email('addr')
    await dashboardVisitor(strict.app, shop.id, who)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await signIn(strict.app, `nobody-${i}@x.example`, 'whatever password')).res.status)
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })

  it('every page but sign-in and invites sends a visitor without a session to sign in', async () => {
    for (const url of [
      '/dashboard',
      '/dashboard/ledger',
      '/dashboard/ledger.csv',
      '/dashboard/transactions',
      '/dashboard/api-key',
      '/dashboard/users',
    ]) {
      const res = await app.inject({ method: 'GET', url })
      expect([res.statusCode, res.headers.location], url).toEqual([303, '/dashboard/sign-in'])
    }
  })
})

async function signInRaw(who: string, on = app) {
  const v = visitor(on)
  await v.get('/dashboard/sign-in')
  const jar = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
  const payload = new URLSearchParams({ _csrf: v.csrf, email: who, password: PASSWORD }).toString()
  const res = await on.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
    payload,
  })
  return { res }
}

describe('CSRF', () => {
  it('a form without its token, or with another visitor’s, is refused with a 403 that says what to do', async () => {
    const shop = await createReseller(app)
    const owner = await dashboardVisitor(app, shop.id, email('csrf'))
    const stranger = visitor(app)
    await stranger.get('/dashboard/sign-in')
    await owner.get('/dashboard/api-key')
    const keysBefore = await ctx.db.selectFrom('api_keys').select('id').where('account_id', '=', shop.id).execute()
    for (const csrf of ['', stranger.csrf, 'x'.repeat(40)]) {
      const res = await owner.post('/dashboard/api-key', {}, { csrf })
      expect(res.status).toBe(403)
      expect(res.body).toContain('INVALID_CSRF_TOKEN')
      expect(res.body).toContain('Muat ulang halaman')
    }
    // Sign-in's own form is guarded too.
    const noToken = await app.inject({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.c&password=x',
    })
    expect(noToken.statusCode).toBe(403)
    expect(await ctx.db.selectFrom('api_keys').select('id').where('account_id', '=', shop.id).execute()).toEqual(keysBefore)
  })
})

describe('roles', () => {
  it('staff see money and orders, never the key, allow-list, webhook or users pages', async () => {
    const shop = await createReseller(app, { balance: 50_000 })
    const staff = await dashboardVisitor(app, shop.id, email('staff'), 'staff')
    const home = await staff.get('/dashboard')
    expect(home.body).toContain('Rp 50.000')
    expect(home.body).not.toContain('/dashboard/api-key')
    for (const url of ['/dashboard/ledger', '/dashboard/transactions']) expect((await staff.get(url)).status, url).toBe(200)
    for (const url of ['/dashboard/api-key', '/dashboard/allow-list', '/dashboard/webhook', '/dashboard/users']) {
      const res = await staff.get(url)
      expect([res.status, res.body.includes('OWNER_ONLY')], url).toEqual([403, true])
    }
    await staff.get('/dashboard')
    const forms: Record<string, Record<string, string>> = {
      '/dashboard/api-key': {},
      '/dashboard/allow-list': { ip_allowlist: '10.0.0.1' },
      '/dashboard/webhook': { callback_url: 'https://x.example/hook' },
      '/dashboard/webhook/secret': {},
      '/dashboard/users': { email: 'x@y.example', role: 'owner' },
    }
    for (const [url, form] of Object.entries(forms)) expect((await staff.post(url, form)).status, url).toBe(403)
    const account = await ctx.db.selectFrom('accounts').select('ip_allowlist').where('id', '=', shop.id).executeTakeFirstOrThrow()
    expect(account.ip_allowlist).toEqual([])
  })

  it('removing a user signs it out everywhere at once', async () => {
    const shop = await createReseller(app)
    const who = email('removed')
    const first = await dashboardVisitor(app, shop.id, who, 'staff')
    const second = (await signIn(app, who)).v
    const users = await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${shop.id}/users`, headers: adminHeaders })
    const id = users.json().data[0].id
    const removed = await app.inject({ method: 'DELETE', url: `/api/admin/v1/resellers/${shop.id}/users/${id}`, headers: adminHeaders })
    expect(removed.json().data).toEqual({ id, removed: true })
    for (const v of [first, second]) expect((await v.get('/dashboard')).location).toBe('/dashboard/sign-in')
    expect((await signIn(app, who)).res.status).toBe(401)
    const again = await app.inject({ method: 'DELETE', url: `/api/admin/v1/resellers/${shop.id}/users/${id}`, headers: adminHeaders })
    expect(again.json().message).toBe('USER_NOT_FOUND')
  })

  it('an owner invites and removes staff from the users page, never itself', async () => {
    const shop = await createReseller(app)
    const owner = await dashboardVisitor(app, shop.id, email('boss'))
    await owner.get('/dashboard/users')
    const staffEmail = email('hired')
    const made = await owner.post('/dashboard/users', { email: staffEmail, role: 'staff' })
    const link = /id="invite-url">([^<]+)</.exec(made.body)![1]
    const staff = visitor(app)
    await staff.get(new URL(link).pathname)
    expect((await staff.post(new URL(link).pathname, { password: PASSWORD, password_again: PASSWORD })).status).toBe(303)
    const rows = await ctx.db.selectFrom('reseller_users').select(['id', 'email']).where('account_id', '=', shop.id).orderBy('id').execute()
    await owner.get('/dashboard/users')
    expect((await owner.post(`/dashboard/users/${rows[0]!.id}/remove`, {})).status).toBe(409)
    expect((await owner.post(`/dashboard/users/${rows[1]!.id}/remove`, {})).location).toBe('/dashboard/users?done=removed')
    expect((await staff.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })
})

describe('pages', () => {
  it('rotates the key (the old one is refused at once), edits the allow-list with the caller’s address', async () => {
    const shop = await createReseller(app, { balance: 10_000 })
    const owner = await dashboardVisitor(app, shop.id, email('keys'))
    await owner.get('/dashboard/api-key')
    const rotated = await owner.post('/dashboard/api-key', {})
    const key = /id="api-key">([^<]+)</.exec(rotated.body)![1]
    expect(key).toMatch(/^rk_/)
    const old = await app.inject({ method: 'GET', url: '/api/v1/balance', headers: shop.headers })
    expect(old.statusCode).toBe(401)
    expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': key } })).statusCode).toBe(200)

    const page = await owner.get('/dashboard/allow-list')
    expect(page.body).toContain('id="my-address">127.0.0.1<')
    const saved = await owner.post('/dashboard/allow-list', { ip_allowlist: '203.0.113.0/24\n198.51.100.7', add_mine: 'on' })
    expect(saved.location).toBe('/dashboard/allow-list?done=saved')
    const account = await ctx.db.selectFrom('accounts').select('ip_allowlist').where('id', '=', shop.id).executeTakeFirstOrThrow()
    expect(account.ip_allowlist).toEqual(['203.0.113.0/24', '198.51.100.7', '127.0.0.1'])
    await owner.get('/dashboard/allow-list')
    const bad = await owner.post('/dashboard/allow-list', { ip_allowlist: 'not-an-address' })
    expect([bad.status, bad.body.includes('not-an-address&#34; bukan alamat IP')]).toEqual([422, true])
  })

  it('shows the ledger with filters and exports it as CSV; finds a transaction by ref_id and shows its licenses', async () => {
    const shop = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 2, { price: 7_000 })
    const bought = await buy(app, shop, 'dash-ref-1', [{ item_id: item.id, quantity: 2 }])
    expect(bought.statusCode, bought.body).toBe(200)
    const invoice = bought.json().data.invoice as string
    const owner = await dashboardVisitor(app, shop.id, email('ledger'))
    const debits = await owner.get('/dashboard/ledger?direction=debit')
    expect(debits.body).toContain('Rp 14.000')
    expect(debits.body).not.toContain('test funding')
    const csv = await app.inject({ method: 'GET', url: '/dashboard/ledger.csv', cookies: Object.fromEntries(owner.cookies) })
    expect(csv.headers['content-type']).toContain('text/csv')
    const lines = csv.body.trim().split('\r\n')
    expect(lines[0]).toBe('id,created_at,invoice,direction,type,amount,balance_before,balance_after,description')
    expect(lines.length).toBe(3)
    expect(lines[1]).toContain(`${invoice},debit,purchase,14000,100000,86000`)

    const search = await owner.get('/dashboard/transactions?q=dash-ref-1')
    expect(search.location).toBe(`/dashboard/transactions/${invoice}`)
    const detail = await owner.get(search.location!)
    expect(detail.body).toContain(`LIC-${item.id}-0-`)
    expect((await owner.get('/dashboard/transactions?q=nope')).body).toContain('id="not-found"')
  })

  it('webhook settings: a secret shown once, a test send with its outcome, the log, a redelivery', async () => {
    const receiver = await startReceiver()
    const shop = await createReseller(app)
    const owner = await dashboardVisitor(app, shop.id, email('hooks'))
    await owner.get('/dashboard/webhook')
    const early = await owner.post('/dashboard/webhook', { callback_url: receiver.url, webhook_enabled: 'on' })
    expect([early.status, early.body.includes('Buat secret dulu')]).toEqual([422, true])
    await owner.get('/dashboard/webhook')
    const secret = /id="webhook-secret">([^<]+)</.exec((await owner.post('/dashboard/webhook/secret', {})).body)![1]
    expect(secret).toMatch(/^whsec_/)
    expect((await owner.get('/dashboard/webhook')).body).not.toContain(secret)
    expect((await owner.post('/dashboard/webhook', { callback_url: receiver.url, webhook_enabled: 'on' })).location).toBe(
      '/dashboard/webhook?done=saved',
    )
    const tested = await owner.post('/dashboard/webhook/test', {})
    expect(tested.body).toMatch(/id="test-outcome">Terkirim: URL Anda menjawab 200/)
    expect(receiver.received.map((r) => r.json.event)).toEqual(['webhook.test'])
    const [delivery] = await ctx.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', shop.id).execute()
    const retried = await owner.post(`/dashboard/webhook/deliveries/${delivery!.id}/retry`, {})
    expect(retried.location).toBe('/dashboard/webhook?done=redelivered')
    const row = await ctx.db.selectFrom('webhook_deliveries').select('status').where('id', '=', delivery!.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('pending')
  })

  it('tops up through a channel priced for the amount, lists and releases locks, shows the leaderboard', async () => {
    const shop = await createReseller(app, { balance: 100_000 })
    const staff = await dashboardVisitor(app, shop.id, email('money'), 'staff')
    await ctx.db
      .insertInto('payment_channels')
      .values({ code: `BCAVA${n}`, name: `BCA Virtual Account ${n}`, type: 'va', fee_flat: 4_000 })
      .onConflict((oc) => oc.doNothing())
      .execute()
    const priced = await staff.get('/dashboard/topup?amount=150.000')
    expect(priced.body).toContain('Rp 154.000')
    const made = await staff.post('/dashboard/topup', { amount: '150000', channel: `BCAVA${n}` })
    expect(made.location).toMatch(/^\/dashboard\/transactions\/TOP/)
    const topup = await staff.get(made.location!)
    expect(topup.body).toContain('/sim/pay/')
    await staff.get('/dashboard/topup')
    const tooSmall = await staff.post('/dashboard/topup', { amount: '5', channel: `BCAVA${n}` })
    expect([tooSmall.status, tooSmall.body.includes('Minimal Rp')]).toEqual([422, true])

    const item = await createItem(app, { order_process: 'manual', price: 1_000, stock: 10 })
    const lock = await app.inject({
      method: 'POST',
      url: '/api/v1/item/lock',
      headers: shop.headers,
      payload: { item_id: item.id, quantity: 2 },
    })
    const token = lock.json().data.lock_token as string
    expect((await staff.get('/dashboard/locks')).body).toContain(`/dashboard/locks/${token}/release`)
    expect((await staff.post(`/dashboard/locks/${token}/release`, {})).location).toBe('/dashboard/locks?done=released')
    expect((await staff.get('/dashboard/locks')).body).not.toContain(token)
    expect((await staff.post(`/dashboard/locks/${token}/release`, {})).status).toBe(422)

    const board = await staff.get('/dashboard/leaderboard')
    expect([board.status, board.body.includes('id="rank"')]).toEqual([200, true])
  })

  it('speaks Bahasa Indonesia by default and English on the switch, remembered', async () => {
    const shop = await createReseller(app)
    const owner = await dashboardVisitor(app, shop.id, email('lang'))
    expect((await owner.get('/dashboard')).body).toContain('Saldo')
    expect((await owner.get('/dashboard?lang=en')).body).toContain('Balance')
    expect((await owner.get('/dashboard/ledger')).body).toContain('Download CSV')
    expect((await owner.get('/dashboard?lang=id')).body).toContain('Saldo')
  })
})
