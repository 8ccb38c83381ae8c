import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// The console's price level pages over inject: levels, a level's rules editor and promotion, an item's
// price per level set by hand, a reseller's level; refused forms say why next to the field.
const { app, ctx } = await createTestApp()
const operator = await signedIn(app)
const fieldError = (html: string, name: string) => new RegExp(`id="${name.replaceAll('.', '\\.')}-error">([^<]+)<`).exec(html)?.[1]
const priceAt = async (itemId: number, code: string) =>
  (await admin<{ level: string; price: number; manual: boolean }[]>(app, 'GET', `/items/${itemId}/level-prices`)).find(
    (p) => p.level === code,
  )!

describe('console: price levels', () => {
  it('lists levels, creates one, and shows a refused one’s reason next to its field with the typed values', async () => {
    const list = await operator.get('/console/price-levels')
    expect(list.status).toBe(200)
    expect(list.body).toContain('href="/console/price-levels/reseller"')
    const made = await operator.post('/console/price-levels', { code: 'vip', name: 'VIP', position: '2', promote_at: '', promote_to: '' })
    expect(made.status).toBe(303)
    expect(made.location).toBe('/console/price-levels/vip?done=level')
    expect(await admin(app, 'GET', '/price-levels')).toContainEqual(expect.objectContaining({ code: 'vip', name: 'VIP', position: 2 }))

    const twice = await operator.post('/console/price-levels', { code: 'vip', name: 'Again', promote_at: '' })
    expect(twice.status).toBe(409)
    expect(fieldError(twice.body, 'code')).toMatch(/exists already/)
    expect(twice.body).toContain('value="Again"')
    const half = await operator.post('/console/price-levels', { code: 'gold', name: 'Gold', promote_at: '10', promote_to: '' })
    expect(half.status).toBe(422)
    expect(fieldError(half.body, 'promote_to')).toMatch(/go together/)
  })

  it("edits a level's promotion and rules: rows added and removed, the set saved at once; a wrong row is named", async () => {
    await admin(app, 'POST', '/price-levels', { code: 'member', name: 'Member' })
    const item = await createItem(app, { price: 10_000, product_name: 'Console Brand' })
    const page = await operator.get('/console/price-levels/member')
    expect(page.status).toBe(200)
    expect(page.body).toContain('id="level-rules"')

    const promoted = await operator.post('/console/price-levels/member', {
      name: 'Members',
      position: '1',
      promote_at: '50',
      promote_to: 'reseller',
    })
    expect(promoted.status).toBe(303)
    expect((await admin<any[]>(app, 'GET', '/price-levels')).find((l) => l.code === 'member')).toMatchObject({
      name: 'Members',
      promote_at: 50,
      promote_to: 'reseller',
    })

    const saved = await operator.post('/console/price-levels/member/rules', {
      scope_0: 'all',
      percent_0: '10',
      round_to_0: '100',
      scope_1: 'brand',
      brand_1: 'console brand',
      percent_1: '-2.5',
      flat_1: '30',
      round_to_1: '50',
      scope_2: '',
    })
    expect(saved.status).toBe(303)
    expect(await admin(app, 'GET', '/price-levels/member/rules')).toHaveLength(2)
    // 9,750 + 30 = 9,780 → 9,800.
    expect((await priceAt(item.id, 'member')).price).toBe(9_800)
    const shown = await operator.get('/console/price-levels/member')
    expect(shown.body).toContain('value="console brand"')

    // Row 1 removed, row 3 filled in wrong: the error is under row 3, the typed rows kept.
    const refused = await operator.post('/console/price-levels/member/rules', {
      scope_0: 'all',
      percent_0: '10',
      round_to_0: '100',
      scope_1: 'brand',
      brand_1: 'console brand',
      remove_1: 'on',
      scope_3: 'category',
      category_id_3: '999999',
    })
    expect(refused.status).toBe(422)
    expect(fieldError(refused.body, 'rules.3.category_id')).toMatch(/no category/)
    expect(refused.body).toContain('value="999999"')
    expect(await admin(app, 'GET', '/price-levels/member/rules')).toHaveLength(2)

    const removed = await operator.post('/console/price-levels/member/rules', {
      scope_0: 'all',
      percent_0: '10',
      round_to_0: '100',
      scope_1: 'brand',
      brand_1: 'console brand',
      remove_1: 'on',
    })
    expect(removed.status).toBe(303)
    expect(await admin(app, 'GET', '/price-levels/member/rules')).toEqual([expect.objectContaining({ scope: 'all', percent: 10 })])
    expect((await priceAt(item.id, 'member')).price).toBe(11_000)
  })

  it("shows an item's price per level and sets one by hand; blank goes back to the rules", async () => {
    await admin(app, 'POST', '/price-levels', { code: 'h2h', name: 'H2H' })
    const item = await createItem(app, { price: 20_000 })
    const page = await operator.get(`/console/items/${item.id}`)
    expect(page.body).toContain('id="item-level-prices"')
    expect(page.body).toContain('aria-label="price for h2h"')
    const set = await operator.post(`/console/items/${item.id}/level-prices`, { level: 'h2h', price: '18500' })
    expect(set.status).toBe(303)
    expect(await priceAt(item.id, 'h2h')).toMatchObject({ price: 18_500, manual: true })
    expect((await operator.get(`/console/items/${item.id}`)).body).toContain('set by hand')
    const wrong = await operator.post(`/console/items/${item.id}/level-prices`, { level: 'h2h', price: 'lots' })
    expect(wrong.status).toBe(422)
    expect(fieldError(wrong.body, 'h2h')).toMatch(/whole number/)
    await operator.post(`/console/items/${item.id}/level-prices`, { level: 'h2h', price: '' })
    expect(await priceAt(item.id, 'h2h')).toMatchObject({ price: 20_000, manual: false })
  })

  it("shows and changes a reseller's level; its next purchase pays that level's price", async () => {
    await admin(app, 'POST', '/price-levels', { code: 'partner', name: 'Partner' })
    const item = await createAutoItem(app, 2, { price: 15_000 })
    await admin(app, 'PUT', `/items/${item.id}/level-prices`, { partner: 14_000 })
    const shop = await createReseller(app, { balance: 100_000 })
    const page = await operator.get(`/console/resellers/${shop.id}`)
    expect(page.body).toMatch(/id="price-level"><a href="\/console\/price-levels\/reseller">reseller</)
    const changed = await operator.post(`/console/resellers/${shop.id}/level`, { price_level: 'partner' })
    expect(changed.status).toBe(303)
    expect((await operator.get(`/console/resellers/${shop.id}`)).body).toContain(
      'id="price-level"><a href="/console/price-levels/partner">',
    )
    expect((await buy(app, shop, 'lv-console-1', [{ item_id: item.id, quantity: 1 }])).json().data.price).toBe(14_000)
    expect((await ctx.db.selectFrom('audit_log').select('action').orderBy('id', 'desc').executeTakeFirstOrThrow()).action).toBe(
      'adminUpdateReseller',
    )
  })
})
