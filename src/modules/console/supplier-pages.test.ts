import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// The console's supplier pages over inject, against the simulators over real HTTP: suppliers and
// their syncs, pricing rules, an item's sources, and the margin report with its chart.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProviders(app, up)
const operator = await signedIn(app)
const tableOf = (html: string, id: string) => html.split(`id="${id}"`)[1]?.split('</table>')[0] ?? ''
const rowsOf = (html: string, id: string) => tableOf(html, id).split('<tr>').length - 2

describe('console: suppliers', () => {
  it('shows each provider’s last sync, syncs on demand with the page’s CSRF token, and pages the changes', async () => {
    const before = await operator.get('/console/suppliers')
    expect(before.status, before.body).toBe(200)
    expect(tableOf(before.body, 'suppliers')).toContain('never')
    expect(before.body).toContain('href="/console/suppliers"')

    const synced = await operator.post('/console/providers/dgf/sync', {})
    expect([synced.status, synced.location]).toEqual([303, '/console/suppliers?provider=dgf&done=sync'])
    const page = await operator.get(synced.location!)
    expect(page.body).toContain('Price list read.')
    const dgf = tableOf(page.body, 'suppliers')
      .split('<tr>')
      .find((row) => row.includes('>dgf<'))!
    expect(dgf).toContain('9 read: 9 new, 0 price')
    expect(dgf).toContain('<span class="tag on">ok</span>')
    expect(rowsOf(page.body, 'supplier-changes')).toBe(9)

    up.digiflazz.priceLists.prepaid.change('ml86', { price: 19_750 })
    await operator.post('/console/providers/dgf/sync', {})
    const priced = await operator.get('/console/suppliers?provider=dgf&kind=price')
    expect(rowsOf(priced.body, 'supplier-changes')).toBe(1)
    expect(tableOf(priced.body, 'supplier-changes')).toContain('19750')

    // A provider that cannot be reached: the failed sync and its reason are shown, the list kept.
    await admin(app, 'POST', '/providers', {
      code: 'gone',
      kind: 'digiflazz',
      base_url: `http://127.0.0.1:${await freePort()}/v1`,
      api_key: 'k',
    })
    const failed = await operator.post('/console/providers/gone/sync', {})
    expect(failed.location).toBe('/console/suppliers?provider=gone&done=sync-failed')
    const shown = await operator.get('/console/suppliers?provider=gone')
    const gone = tableOf(shown.body, 'suppliers')
      .split('<tr>')
      .find((row) => row.includes('>gone<'))!
    expect(gone).toContain('<span class="tag off">failed</span>')
    expect(gone).toContain('provider unreachable')

    // A price locked by hand that the supplier's price passes: the floor keeps it from selling, as on Margin watch.
    expect(page.body).not.toContain('id="below-cost"')
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 20_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ff140',
    })
    await admin(app, 'PUT', `/items/${item.id}/sources`, { sources: [{ provider: 'dgf', code: 'ff140', priority: 1 }] })
    await admin(app, 'PATCH', `/items/${item.id}`, { price: 18_500, price_locked: true })
    up.digiflazz.priceLists.prepaid.change('ff140', { price: 18_900 })
    await operator.post('/console/providers/dgf/sync', {})
    const suppliers = (await operator.get('/console/suppliers')).body
    const below = tableOf(suppliers, 'below-cost')
    expect(below).toContain(`/console/items/${item.id}`)
    expect(below).toContain('Rp 18.900')
    expect(suppliers).toContain('href="/console/margin-watch"')
    expect(tableOf((await operator.get('/console/margin-watch')).body, 'below-cost')).toBe(below)

    // Without the page's token nothing is read.
    const forged = await operator.post('/console/providers/dgf/sync', {}, { csrf: 'x'.repeat(40) })
    expect(forged.status).toBe(403)
    expect(up.digiflazz.priceLists.prepaid.reads).toBe(3)
  })
})

describe('console: held prices', () => {
  it('lists the prices a sync held; Approve applies one, Reject ignores another, each with the page’s CSRF token', async () => {
    const own = await startUpstreams()
    try {
      await addSimulatedProvider(app, own, 'digiflazz', 'held-dgf')
      await operator.post('/console/providers/held-dgf/sync', {})
      own.digiflazz.priceLists.prepaid.change('ff140', { price: 90_000 })
      own.digiflazz.priceLists.prepaid.change('tsel25', { price: 0 })
      await operator.post('/console/providers/held-dgf/sync', {})
      const page = await operator.get('/console/suppliers?provider=held-dgf')
      expect(rowsOf(page.body, 'held-prices')).toBe(2)
      const held = tableOf(page.body, 'held-prices')
      expect(held).toContain('90000')
      expect(held).toContain('invalid price')
      // A price that can never be applied offers Reject only.
      expect(held.split('/approve').length - 1).toBe(1)
      const ids = await admin<{ id: number; code: string }[]>(app, 'GET', '/providers/held-dgf/held')
      const idOf = (code: string) => ids.find((h) => h.code === code)!.id
      const approved = await operator.post(`/console/providers/held-dgf/held/${idOf('ff140')}/approve`, {})
      expect([approved.status, approved.location]).toEqual([303, '/console/suppliers?provider=held-dgf&done=held-approved'])
      const rejected = await operator.post(`/console/providers/held-dgf/held/${idOf('tsel25')}/reject`, {})
      expect(rejected.location).toBe('/console/suppliers?provider=held-dgf&done=held-rejected')
      const after = await operator.get(rejected.location!)
      expect(after.body).toContain('Held price rejected')
      expect(tableOf(after.body, 'held-prices')).toContain('No price waits for a decision.')
      const products = await admin<{ code: string; price: number }[]>(app, 'GET', '/providers/held-dgf/products')
      expect(
        products
          .filter((p) => ['ff140', 'tsel25'].includes(p.code))
          .map((p) => `${p.code} ${p.price}`)
          .sort(),
      ).toEqual(['ff140 90000', 'tsel25 24900'])
    } finally {
      await own.close()
    }
  })
})

describe('console: pricing rules and sources', () => {
  it('adds, changes and deletes a rule; edits an item’s sources by priority', async () => {
    await operator.post('/console/providers/dgf/sync', {})
    const empty = await operator.get('/console/pricing')
    expect(empty.body).toContain('No pricing rules yet')
    const added = await operator.post('/console/pricing', {
      scope: 'provider',
      provider: 'dgf',
      percent: '5',
      flat: '0',
      round_to: '100',
      min_margin: '0',
    })
    expect(added.location).toBe('/console/pricing?done=rule')
    const refused = await operator.post('/console/pricing', { scope: 'category', provider: 'dgf', percent: '5' })
    expect([refused.status, refused.body.includes('category')]).toEqual([422, true])
    const notNumber = await operator.post('/console/pricing', { scope: 'provider', provider: 'dgf', percent: 'five' })
    expect([notNumber.status, notNumber.body.includes('percent')]).toEqual([422, true])

    await operator.get('/console/pricing')
    await operator.post('/console/pricing', {
      scope: 'provider',
      provider: 'dgf',
      percent: '7.5',
      flat: '200',
      round_to: '500',
      min_margin: '100',
    })
    const rules = await ctx.db.selectFrom('pricing_rules').select(['id', 'percent', 'flat', 'round_to', 'min_margin']).execute()
    expect(rules.map((r) => ({ ...r, percent: Number(r.percent), flat: Number(r.flat), min_margin: Number(r.min_margin) }))).toEqual([
      { id: expect.any(Number), percent: 7.5, flat: 200, round_to: 500, min_margin: 100 },
    ])
    const listed = await operator.get('/console/pricing')
    expect(rowsOf(listed.body, 'pricing-rules')).toBe(1)
    expect(tableOf(listed.body, 'pricing-rules')).toContain('value="7.5"')

    const item = await createItem(app, {
      order_process: 'h2h',
      price: 20_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ml86',
    })
    const sourcesPage = await operator.get(`/console/items/${item.id}/sources`)
    expect(sourcesPage.status).toBe(200)
    expect((await operator.get(`/console/items/${item.id}`)).body).toContain(`href="/console/items/${item.id}/sources"`)
    const saved = await operator.post(`/console/items/${item.id}/sources`, {
      provider_0: 'dgf',
      code_0: 'ml172',
      priority_0: '2',
      provider_1: 'dgf',
      code_1: 'ml86',
      priority_1: '1',
    })
    expect(saved.location).toBe(`/console/items/${item.id}/sources?done=sources`)
    const shown = await operator.get(`/console/items/${item.id}/sources`)
    expect(rowsOf(shown.body, 'item-sources')).toBe(2)
    expect(tableOf(shown.body, 'item-sources').indexOf('ml86')).toBeLessThan(tableOf(shown.body, 'item-sources').indexOf('ml172'))
    const stored = async () =>
      (
        await ctx.db.selectFrom('item_sources').select(['code', 'priority']).where('item_id', '=', item.id).orderBy('priority').execute()
      ).map((s) => `${s.priority}:${s.code}`)
    expect(await stored()).toEqual(['1:ml86', '2:ml172'])
    // The form shows the sources by priority: ticking the first removes ml86.
    await operator.post(`/console/items/${item.id}/sources`, {
      provider_0: 'dgf',
      code_0: 'ml86',
      priority_0: '1',
      remove_0: 'on',
      provider_1: 'dgf',
      code_1: 'ml172',
      priority_1: '2',
    })
    expect(await stored()).toEqual(['2:ml172'])
    const clash = await operator.post(`/console/items/${item.id}/sources`, { provider_0: 'panel', code_0: '7', priority_0: '1' })
    expect([clash.status, clash.body.includes('sources.0.provider')]).toEqual([422, true])
    expect(await stored()).toEqual(['2:ml172'])

    const ruleId = rules[0]!.id
    await operator.get('/console/pricing')
    expect((await operator.post(`/console/pricing/${ruleId}/delete`, {})).location).toBe('/console/pricing?done=deleted')
    expect(await ctx.db.selectFrom('pricing_rules').select('id').execute()).toEqual([])
  })

  it('shows an item’s floor margin and switches allow_loss', async () => {
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 20_000,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'ml86',
    })
    const floorOf = async () => (await operator.get(`/console/items/${item.id}`)).body.split('id="item-floor">')[1]!.split('<')[0]
    expect(await floorOf()).toBe('store default')
    const allowed = await operator.post(`/console/items/${item.id}/allow-loss`, { allow_loss: 'true' })
    expect(allowed.location).toBe(`/console/items/${item.id}?done=item`)
    expect(await floorOf()).toBe('loss allowed')
    expect(await admin(app, 'GET', `/items/${item.id}`)).toMatchObject({ allow_loss: true, min_margin: null })
    await operator.post(`/console/items/${item.id}/allow-loss`, { allow_loss: 'false' })
    expect((await admin(app, 'GET', `/items/${item.id}`)).allow_loss).toBe(false)
  })
})

describe('console: margin', () => {
  it('shows the report with a bar per row, a title and a description; bad days answer 422', async () => {
    const shop = await createReseller(app, { name: 'Toko Margin', balance: 100_000 })
    const other = await createReseller(app, { name: 'Toko Rugi', balance: 100_000 })
    const item = await createAutoItem(app, 3, { price: 10_000 })
    await sql`UPDATE items SET cost = 7000 WHERE id = ${item.id}`.execute(ctx.db)
    for (const [r, ref] of [
      [shop, 'cm-1'],
      [other, 'cm-2'],
    ] as const)
      expect((await buy(app, r, ref, [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    // Costs as purchase() records them, where it recorded none; the second sale made at a loss.
    await sql`UPDATE order_lines SET cost = 7000 WHERE item_id = ${item.id} AND cost IS NULL`.execute(ctx.db)
    await sql`UPDATE order_lines l SET cost = 12000 FROM orders o WHERE o.id = l.order_id AND o.account_id = ${other.id}`.execute(ctx.db)

    const page = await operator.get('/console/margin?group=reseller')
    expect(page.status).toBe(200)
    expect(rowsOf(page.body, 'margin')).toBe(2)
    const chart = page.body.split('id="margin-chart"')[1]!.split('</svg>')[0]!
    expect(chart.match(/<rect class="bar/g)).toHaveLength(2)
    expect(chart).toContain('<rect class="bar loss"')
    expect(chart).toMatch(/<title id="margin-chart-title">Margin per reseller, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}<\/title>/)
    expect(chart).toContain('<desc id="margin-chart-desc">')
    expect(chart).toContain('Toko Margin')
    expect(tableOf(page.body, 'margin').indexOf('Toko Margin')).toBeLessThan(tableOf(page.body, 'margin').indexOf('Toko Rugi'))

    const byItem = await operator.get('/console/margin?group=item')
    expect(
      byItem.body
        .split('id="margin-chart"')[1]!
        .split('</svg>')[0]!
        .match(/<rect class="bar/g),
    ).toHaveLength(1)
    const none = await operator.get('/console/margin?from=2020-01-01&to=2020-01-02')
    expect([none.status, none.body.includes('id="margin-chart"'), none.body.includes('No orders in this range')]).toEqual([
      200,
      false,
      true,
    ])
    const bad = await operator.get('/console/margin?from=2026-11-02&to=2026-11-01')
    expect([bad.status, bad.body.includes('VALIDATION_ERROR')]).toEqual([422, true])
  })
})

describe('console: margin watch', () => {
  it('lists a line sold below the floor with its cause, a bill the floor refused, and says what fills an empty section', async () => {
    const empty = await operator.get('/console/margin-watch?from=2020-01-01&to=2020-01-02')
    expect(empty.status).toBe(200)
    expect(empty.body).toContain('Nothing sold below the floor in these days')
    expect(empty.body).toContain('No bill refused in these days')
    expect(empty.body).toContain('href="/console/margin-watch"')

    const shop = await createReseller(app, { name: 'Toko Promo', balance: 500_000 })
    const promo = await createAutoItem(app, 3, { price: 10_000 })
    await sql`UPDATE items SET cost = 11000, allow_loss = true WHERE id = ${promo.id}`.execute(ctx.db)
    expect((await buy(app, shop, 'cw-1', [{ item_id: promo.id, quantity: 1 }])).statusCode).toBe(200)
    await sql`UPDATE order_lines SET cost = 11000 WHERE item_id = ${promo.id} AND cost IS NULL`.execute(ctx.db)
    const bill = await createItem(app, {
      order_process: 'h2h',
      price: 2_500,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'pln',
      provider_meta: { postpaid: true },
    })
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/trx/tagihan/inquiry',
      headers: shop.headers,
      payload: { item_id: bill.id, customer_id: '530000000008' },
    })
    expect(refused.statusCode).toBe(503)

    const page = await operator.get('/console/margin-watch')
    expect(page.status).toBe(200)
    // The margin report's loss above is listed too; this is the promotion's row.
    const lines = tableOf(page.body, 'watch-lines')
      .split('<tr>')
      .find((row) => row.includes('Toko Promo'))!
    expect(lines).toContain('allow_loss')
    expect(lines).toContain('Rp 1.000')
    const bills = tableOf(page.body, 'watch-bills')
    expect(bills).toContain('530000000008')
    expect(bills).toContain('Rp 110.000')
    const bad = await operator.get('/console/margin-watch?from=2026-11-02&to=2026-11-01')
    expect([bad.status, bad.body.includes('VALIDATION_ERROR')]).toEqual([422, true])
  })
})
