import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { PASSWORD } from '../../../test/dashboard.js'
import { createReseller } from '../../../test/factory.js'

const { app } = await createTestApp()

describe('the console invites and removes a reseller’s dashboard users', () => {
  it('shows the one-time invite link, lists the user, and removing it signs it out', async () => {
    const shop = await createReseller(app, { name: 'Toko Invite' })
    const operator = await signedIn(app)
    const page = await operator.get(`/console/resellers/${shop.id}`)
    expect(page.body).toContain('id="dashboard-users"')
    const invited = await operator.post(`/console/resellers/${shop.id}/users`, { email: 'owner@invite.example', role: 'owner' })
    expect(invited.status).toBe(200)
    const link = new URL(/id="invite-url">([^<]+)</.exec(invited.body)![1]!)

    const person = visitor(app)
    await person.get(link.pathname)
    expect((await person.post(link.pathname, { password: PASSWORD, password_again: PASSWORD })).location).toBe('/dashboard')
    expect((await person.get('/dashboard')).body).toContain('Toko Invite')

    const listed = await operator.get(`/console/resellers/${shop.id}`)
    expect(listed.body).toContain('owner@invite.example')
    const userId = /\/users\/(\d+)\/remove/.exec(listed.body)![1]
    const removed = await operator.post(`/console/resellers/${shop.id}/users/${userId}/remove`, {})
    expect(removed.location).toBe(`/console/resellers/${shop.id}?done=user-removed#dashboard-users`)
    expect((await person.get('/dashboard')).location).toBe('/dashboard/sign-in')
    // Another reseller's user through this reseller's path is not found.
    const other = await createReseller(app)
    await operator.get(`/console/resellers/${other.id}`)
    expect((await operator.post(`/console/resellers/${other.id}/users/${userId}/remove`, {})).status).toBe(404)
  })
})
