import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { dashboardVisitor } from '../../../test/dashboard.js'
import { admin, createReseller } from '../../../test/factory.js'

// Issue #55 point 8: confirmations before the destructive buttons, the tables' headers, and HTML
// (never the API's JSON) for the console's and the dashboard's paths that no page has.
const { app } = await createTestApp()
const operator = await signedIn(app)

describe('console: rough edges', () => {
  it('asks before suspending a reseller (not before activating one) and before deleting a pricing rule', async () => {
    const r = await createReseller(app, { name: 'Toko Confirm' })
    const active = await operator.get(`/console/resellers/${r.id}`)
    expect(active.body).toMatch(/action="\/console\/resellers\/\d+\/status" onsubmit="return confirm\(&quot;Suspend this reseller\?/)
    expect((await operator.post(`/console/resellers/${r.id}/status`, { status: 'suspended' })).status).toBe(303)
    const suspended = await operator.get(`/console/resellers/${r.id}`)
    expect(suspended.body).toMatch(/action="\/console\/resellers\/\d+\/status">/)

    await admin(app, 'POST', '/providers', { code: 'confirm-prov', kind: 'digiflazz', base_url: 'https://confirm.example/v1' })
    await admin(app, 'PUT', '/pricing-rules', { scope: 'provider', provider: 'confirm-prov', percent: 5 })
    const pricing = await operator.get('/console/pricing')
    expect(pricing.body).toMatch(/action="\/console\/pricing\/\d+\/delete" onsubmit="return confirm\(&quot;Delete this pricing rule\?/)
  })

  it("puts each of a pricing rule's fields in its header's column: as many cells in its row as headers", async () => {
    const pricing = await operator.get('/console/pricing')
    const table = pricing.body.slice(pricing.body.indexOf('id="pricing-rules"'), pricing.body.indexOf('</table>'))
    const headers = table.match(/<th[ >]/g)!.length
    const row = table.slice(table.indexOf('<tr><td><span class="tag">provider'))
    const firstRow = row.slice(0, row.indexOf('</tr>'))
    expect(firstRow.match(/<td[ >]/g)!.length).toBe(headers)
    expect(firstRow).not.toContain('colspan')
    // The fields outside the row's form still belong to it.
    const formId = /<form class="inline" method="post" action="\/console\/pricing" id="(rule-\d+)"/.exec(firstRow)![1]
    for (const field of ['percent', 'flat', 'round_to', 'min_margin'])
      expect(firstRow).toMatch(new RegExp(`form="${formId}" name="${field}"`))
  })

  it('answers /console/ with the overview and an unknown console path with the 404 page in its layout', async () => {
    const slash = await operator.get('/console/')
    expect([slash.status, slash.location]).toEqual([301, '/console'])
    for (const path of ['/console/nope', '/console/resellers/1/nope/deeper']) {
      const res = await app.inject({
        method: 'GET',
        url: path,
        headers: { cookie: [...operator.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      })
      expect(res.statusCode, path).toBe(404)
      expect(res.headers['content-type'], path).toMatch(/^text\/html/)
      expect(res.body).toContain('<h1>Not found</h1>')
      expect(res.body).toContain('id="signed-in-as"')
    }
    // Signed out: the sign-in page, as for any console page.
    expect((await visitor(app).get('/console/nope')).location).toBe('/console/sign-in')
    // The API keeps its JSON.
    const api = await app.inject({ method: 'GET', url: '/api/v1/nope' })
    expect(api.json()).toEqual({ message: 'NOT_FOUND' })
  })

  it("answers an unknown dashboard path with the dashboard's 404 page, and /dashboard/ with the home page", async () => {
    const r = await createReseller(app, { name: 'Toko Dash 404' })
    const person = await dashboardVisitor(app, r.id, 'dash404@example.com')
    const slash = await person.get('/dashboard/')
    expect([slash.status, slash.location]).toEqual([301, '/dashboard'])
    const res = await app.inject({
      method: 'GET',
      url: '/dashboard/nope',
      headers: { cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('NOT_FOUND')
    expect(res.body).toContain('/dashboard/sign-out')
  })
})
