import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { PASSWORD, dashboardVisitor, invite, signIn } from '../../../test/dashboard.js'
import { createReseller } from '../../../test/factory.js'

// An email may be a user of several accounts (one row, one invite and one password each), so inviting
// an email answers the same whether or not another account has it, and the accounts stay apart.

const { app, ctx } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' })
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }
let n = 0
const email = (who: string) => `${who}-${++n}@member.example`

/** A page or answer with what differs by construction masked: the email, tokens, links, ids and times. */
const mask = (text: string, ...emails: string[]) =>
  emails
    .reduce((t, e) => t.replaceAll(e, '<email>'), text)
    .replace(/\/dashboard\/invite\/[\w-]+/g, '/dashboard/invite/<token>')
    .replace(/name="_csrf" value="[^"]+"/g, 'name="_csrf" value="<token>"')
    .replace(/"csrf-token": "[^"]+"/g, '"csrf-token": "<token>"')
    .replace(/\/users\/\d+\//g, '/users/<id>/')
    .replace(/"id":\d+/g, '"id":0')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/\d\d:\d\d( WIB)?/g, '<hh:mm>')

describe('inviting an email never tells whether another account has it', () => {
  it('the admin API answers another account’s user like a fresh email', async () => {
    const [mine, theirs] = [await createReseller(app), await createReseller(app)]
    const taken = email('taken')
    await dashboardVisitor(app, theirs.id, taken)
    const fresh = email('fresh')
    const post = (address: string) =>
      app.inject({
        method: 'POST',
        url: `/api/admin/v1/resellers/${mine.id}/users`,
        headers: adminHeaders,
        payload: { email: address, role: 'staff' },
      })
    const [a, b] = [await post(taken), await post(fresh)]
    expect(a.statusCode).toBe(200)
    expect(mask(a.body, taken)).toEqual(mask(b.body, fresh))
  })

  it('the owner’s users page and the console answer it like a fresh email too', async () => {
    const theirs = await createReseller(app)
    const taken = email('taken')
    await dashboardVisitor(app, theirs.id, taken)
    // Two accounts alike, each inviting one email: the pages differ only by what is masked.
    const pageFor = async (address: string) => {
      const shop = await createReseller(app, { name: 'Same Shop' })
      const ownerEmail = email('owner')
      const owner = await dashboardVisitor(app, shop.id, ownerEmail)
      await owner.get('/dashboard/users')
      const res = await owner.post('/dashboard/users', { email: address, role: 'staff' })
      return { status: res.status, body: mask(res.body, address, ownerEmail) }
    }
    const first = await pageFor(taken)
    expect(first.status).toBe(200)
    expect(first).toEqual(await pageFor(email('fresh')))
    const mine = await createReseller(app)
    const operator = await signedIn(app)
    const consoleFor = async (address: string) => {
      await operator.get(`/console/resellers/${mine.id}`)
      const res = await operator.post(`/console/resellers/${mine.id}/users`, { email: address, role: 'owner' })
      return { status: res.status, body: mask(res.body, address) }
    }
    const taken2 = email('taken')
    await dashboardVisitor(app, theirs.id, taken2)
    expect(await consoleFor(taken2)).toEqual(await consoleFor(email('fresh')))
  })

  it('the invite link opens alike, and its password is that account’s alone', async () => {
    const [mine, theirs] = [await createReseller(app, { name: 'Mine Shop' }), await createReseller(app, { name: 'Their Shop' })]
    const person = email('person')
    await dashboardVisitor(app, theirs.id, person)
    const fresh = email('fresh')
    const [linkTaken, linkFresh] = [await invite(app, mine.id, person, 'staff'), await invite(app, mine.id, fresh, 'staff')]
    const [pageTaken, pageFresh] = [await visitor(app).get(linkTaken.path), await visitor(app).get(linkFresh.path)]
    expect(pageTaken.status).toBe(200)
    expect(mask(pageTaken.body, person)).toEqual(mask(pageFresh.body, fresh))
    // Whoever opens the link sets the password of this account's row only: theirs still signs in with its own.
    const holder = visitor(app)
    await holder.get(linkTaken.path)
    expect(
      (await holder.post(linkTaken.path, { password: 'the inviter chose this', password_again: 'the inviter chose this' })).location,
    ).toBe('/dashboard')
    expect((await holder.get('/dashboard')).body).toContain('Mine Shop')
    const theirsSignIn = await signIn(app, person)
    expect(theirsSignIn.res.location).toBe('/dashboard')
    const home = await theirsSignIn.v.get('/dashboard')
    expect([home.body.includes('Their Shop'), home.body.includes('Mine Shop')]).toEqual([true, false])
    const mineSignIn = await signIn(app, person, 'the inviter chose this')
    expect((await mineSignIn.v.get('/dashboard')).body).toContain('Mine Shop')
    // Each account lists its own row; removing one leaves the other.
    const list = async (id: number) =>
      (await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${id}/users`, headers: adminHeaders })).json().data as Array<{
        id: number
        email: string
      }>
    const mineRow = (await list(mine.id)).find((u) => u.email === person)!
    const theirRow = (await list(theirs.id)).find((u) => u.email === person)!
    expect(mineRow.id).not.toBe(theirRow.id)
    await app.inject({ method: 'DELETE', url: `/api/admin/v1/resellers/${mine.id}/users/${mineRow.id}`, headers: adminHeaders })
    expect((await theirsSignIn.v.get('/dashboard')).status).toBe(200)
    expect((await mineSignIn.v.get('/dashboard')).location).toBe('/dashboard/sign-in')
  })
})

describe('one password for several accounts', () => {
  it('signs in to a chooser of exactly those accounts, and switches only among them', async () => {
    const [a, b, c] = [
      await createReseller(app, { name: 'Alpha Shop' }),
      await createReseller(app, { name: 'Beta Shop' }),
      await createReseller(app, { name: 'Gamma Shop' }),
    ]
    const person = email('multi')
    await dashboardVisitor(app, a.id, person)
    await dashboardVisitor(app, b.id, person, 'staff')
    const stranger = await dashboardVisitor(app, c.id, email('gamma'))
    void stranger
    const { v, res } = await signIn(app, person)
    expect(res.location).toBe('/dashboard/accounts')
    const chooser = await v.get('/dashboard/accounts')
    expect([chooser.body.includes('Alpha Shop'), chooser.body.includes('Beta Shop'), chooser.body.includes('Gamma Shop')]).toEqual([
      true,
      true,
      false,
    ])
    const rows = await ctx.db.selectFrom('reseller_users').select(['id', 'account_id']).where('email', '=', person).execute()
    const beta = rows.find((r) => r.account_id === b.id)!
    const chosen = await v.post('/dashboard/accounts', { user_id: String(beta.id) })
    expect([chosen.status, chosen.location], chosen.body.slice(-1500)).toEqual([303, '/dashboard'])
    const home = await v.get('/dashboard')
    expect(home.body).toContain('Beta Shop')
    expect(home.body).not.toContain('/dashboard/api-key')
    // Another account's user, even of the same email, is not this session's to switch to.
    const gammaUser = await ctx.db.selectFrom('reseller_users').select('id').where('account_id', '=', c.id).executeTakeFirstOrThrow()
    expect((await v.post('/dashboard/accounts', { user_id: String(gammaUser.id) })).status).toBe(404)
    expect((await v.get('/dashboard')).body).toContain('Beta Shop')
    // A single-account sign-in has no chooser to switch with.
    const single = await dashboardVisitor(app, c.id, email('single'))
    await single.get('/dashboard')
    expect((await single.post('/dashboard/accounts', { user_id: String(beta.id) })).status).toBe(404)
  })

  it('a password changed in one account ends every other session its old password opened, wherever it looks now', async () => {
    const [a, b] = [await createReseller(app, { name: 'Delta Shop' }), await createReseller(app, { name: 'Echo Shop' })]
    const person = email('changer')
    await dashboardVisitor(app, a.id, person)
    await dashboardVisitor(app, b.id, person)
    const rows = await ctx.db.selectFrom('reseller_users').select(['id', 'account_id']).where('email', '=', person).execute()
    const [onA, onB] = [rows.find((r) => r.account_id === a.id)!, rows.find((r) => r.account_id === b.id)!]
    // Someone who had the password looks at Echo Shop; the person changes Delta Shop's password.
    const other = (await signIn(app, person)).v
    await other.get('/dashboard/accounts')
    await other.post('/dashboard/accounts', { user_id: String(onB.id) })
    const here = (await signIn(app, person)).v
    await here.get('/dashboard/accounts')
    await here.post('/dashboard/accounts', { user_id: String(onA.id) })
    await here.get('/dashboard/password')
    const form = { current_password: PASSWORD, password: 'a brand new one', password_again: 'a brand new one' }
    expect((await here.post('/dashboard/password', form)).location).toBe('/dashboard/password?done=changed')
    expect((await other.get('/dashboard')).location).toBe('/dashboard/sign-in')
    expect((await here.get('/dashboard')).body).toContain('Delta Shop')
  })
})
