import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { latestAuditId } from '../../../test/team.js'

// The operator's side of price levels (docs/design.md §5d) through the admin API: levels, their
// rules, hand-set prices, a reseller's level; errors name their fields; every write is audited.
const { app, ctx } = await createTestApp()
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })
const fields = (res: { json(): any }) => Object.keys(res.json().errors ?? {}).sort()
const defaults = async () => (await admin<{ code: string; is_default: boolean }[]>(app, 'GET', '/price-levels')).filter((l) => l.is_default)
const priceAt = async (itemId: number, code: string) =>
  (await admin<{ level: string; price: number; manual: boolean }[]>(app, 'GET', `/items/${itemId}/level-prices`)).find(
    (p) => p.level === code,
  )!
const auditSince = (id: number, action: string) =>
  ctx.db.selectFrom('audit_log').selectAll().where('id', '>', id).where('action', '=', action).orderBy('id').execute()

describe('price levels: the admin API', () => {
  it('creates, lists and changes levels; one is always the default, and the default moves', async () => {
    expect(await admin(app, 'GET', '/price-levels')).toEqual([expect.objectContaining({ code: 'reseller', is_default: true })])
    const member = await admin(app, 'POST', '/price-levels', { code: 'member', name: 'Member', position: 5 })
    expect(member).toMatchObject({ code: 'member', name: 'Member', position: 5, is_default: false, promote_at: null, promote_to: null })
    await admin(app, 'POST', '/price-levels', { code: 'partner', name: 'Partner', position: 1, is_default: true })
    expect((await defaults()).map((l) => l.code)).toEqual(['partner'])
    // Listed by position.
    expect((await admin<{ code: string }[]>(app, 'GET', '/price-levels')).map((l) => l.code)).toEqual(['reseller', 'partner', 'member'])

    const refused = await call('PATCH', '/price-levels/partner', { is_default: false })
    expect(refused.statusCode).toBe(422)
    expect(fields(refused)).toEqual(['is_default'])
    await admin(app, 'PATCH', '/price-levels/reseller', { is_default: true })
    expect((await defaults()).map((l) => l.code)).toEqual(['reseller'])

    const changed = await admin(app, 'PATCH', '/price-levels/member', { name: 'Members', promote_at: 100, promote_to: 'partner' })
    expect(changed).toMatchObject({ name: 'Members', promote_at: 100, promote_to: 'partner' })
    const half = await call('PATCH', '/price-levels/member', { promote_at: null })
    expect(half.statusCode).toBe(422)
    expect(fields(half)).toEqual(['promote_at'])
    const toSelf = await call('PATCH', '/price-levels/member', { promote_to: 'member' })
    expect(fields(toSelf)).toEqual(['promote_to'])

    const twice = await call('POST', '/price-levels', { code: 'member', name: 'Again' })
    expect(twice.statusCode).toBe(409)
    expect(fields(twice)).toEqual(['code'])
    const badCode = await call('POST', '/price-levels', { code: 'Bad Code', name: 'x' })
    expect(badCode.statusCode).toBe(422)
    expect(fields(badCode)).toEqual(['code'])
  })

  it('answers 404 PRICE_LEVEL_NOT_FOUND for a level that does not exist', async () => {
    for (const [method, url, payload] of [
      ['PATCH', '/price-levels/nope', { name: 'x' }],
      ['GET', '/price-levels/nope/rules', undefined],
      ['PUT', '/price-levels/nope/rules', { rules: [] }],
    ] as const) {
      const res = await call(method, url, payload)
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.json().message).toBe('PRICE_LEVEL_NOT_FOUND')
    }
  })

  it('refuses a rule set naming each wrong rule by its field, and keeps the old set', async () => {
    await admin(app, 'POST', '/price-levels', { code: 'checked', name: 'Checked' })
    const item = await createItem(app, { price: 10_000 })
    await admin(app, 'PUT', '/price-levels/checked/rules', { rules: [{ scope: 'all', percent: 5 }] })
    const category = (await ctx.db.selectFrom('categories').select('id').executeTakeFirstOrThrow()).id
    const res = await call('PUT', '/price-levels/checked/rules', {
      rules: [
        { scope: 'category', category_id: 999_999 },
        { scope: 'item', item_id: 999_999 },
        { scope: 'category' },
        { scope: 'all', item_id: item.id },
        { scope: 'brand', brand: 'Brand Y', category_id: category },
        { scope: 'brand', brand: 'brand y', category_id: category },
        { scope: 'item', item_id: item.id, brand: 'Brand Y' },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(fields(res)).toEqual([
      'rules.0.category_id',
      'rules.1.item_id',
      'rules.2.category_id',
      'rules.3.item_id',
      'rules.5',
      'rules.6.brand',
    ])
    for (const [rule, field] of [
      [{ scope: 'all', percent: -100 }, 'rules.0.percent'],
      [{ scope: 'all', round_to: 30 }, 'rules.0.round_to'],
      [{ scope: 'everything' }, 'rules.0.scope'],
    ] as const) {
      const bad = await call('PUT', '/price-levels/checked/rules', { rules: [rule] })
      expect(bad.statusCode, JSON.stringify(rule)).toBe(422)
      expect(fields(bad)).toEqual([field])
    }
    expect(await admin(app, 'GET', '/price-levels/checked/rules')).toEqual([expect.objectContaining({ scope: 'all', percent: 5 })])
    expect((await priceAt(item.id, 'checked')).price).toBe(10_500)
  })

  it('prices each item by the level rules, and a hand-set price wins until cleared', async () => {
    await admin(app, 'POST', '/price-levels', { code: 'vip', name: 'VIP' })
    const item = await createItem(app, { price: 10_000, product_name: 'Brand Z' })
    const other = await createItem(app, { price: 20_000, product_name: 'Other Z' })
    expect((await priceAt(item.id, 'vip')).price).toBe(10_000)
    const put = await admin(app, 'PUT', '/price-levels/vip/rules', {
      rules: [
        { scope: 'all', percent: -3, round_to: 100 },
        { scope: 'brand', brand: 'brand z', percent: 2.5, flat: 10, round_to: 50 },
      ],
    })
    expect(put.rules).toHaveLength(2)
    expect(put.rules[1]).toMatchObject({ scope: 'brand', brand: 'brand z', percent: 2.5, flat: 10, round_to: 50 })
    expect(put.prices_moved).toBeGreaterThanOrEqual(2)
    // 10,250 + 10 = 10,260 → 10,300; 19,400 stays on 100s.
    expect(await priceAt(item.id, 'vip')).toMatchObject({ price: 10_300, manual: false })
    expect((await priceAt(other.id, 'vip')).price).toBe(19_400)
    expect((await priceAt(item.id, 'reseller')).price).toBe(10_000)

    const set = await admin(app, 'PUT', `/items/${item.id}/level-prices`, { vip: 9_999 })
    expect(set.find((p: any) => p.level === 'vip')).toMatchObject({ price: 9_999, manual: true, rule_id: null })
    await admin(app, 'PUT', '/price-levels/vip/rules', { rules: [{ scope: 'all', percent: 50 }] })
    expect((await priceAt(item.id, 'vip')).price).toBe(9_999)
    expect((await priceAt(other.id, 'vip')).price).toBe(30_000)
    await admin(app, 'PUT', `/items/${item.id}/level-prices`, { vip: null })
    expect(await priceAt(item.id, 'vip')).toMatchObject({ price: 15_000, manual: false })

    const unknown = await call('PUT', `/items/${item.id}/level-prices`, { nope: 1_000 })
    expect(unknown.statusCode).toBe(422)
    expect(fields(unknown)).toEqual(['nope'])
    const missing = await call('PUT', '/items/999999/level-prices', { vip: 1_000 })
    expect(missing.json().message).toBe('ITEM_NOT_FOUND')
    expect((await call('GET', '/items/999999/level-prices')).statusCode).toBe(404)
  })

  it("a reseller's level set by PATCH /resellers/{id} prices its next purchase", async () => {
    await admin(app, 'POST', '/price-levels', { code: 'h2h', name: 'H2H' })
    const item = await createAutoItem(app, 3, { price: 20_000, product_name: 'H2H goods' })
    await admin(app, 'PUT', `/items/${item.id}/level-prices`, { h2h: 18_500 })
    const shop = await createReseller(app, { balance: 100_000 })
    expect((await admin(app, 'GET', `/resellers/${shop.id}`)).price_level).toBe('reseller')
    expect((await buy(app, shop, 'lv-admin-1', [{ item_id: item.id, quantity: 1 }])).json().data.price).toBe(20_000)

    const moved = await admin(app, 'PATCH', `/resellers/${shop.id}`, { price_level: 'h2h' })
    expect(moved.price_level).toBe('h2h')
    const listed = await admin<{ id: number; price_level: string }[]>(app, 'GET', `/resellers?search=${shop.id}`)
    expect(listed.find((a) => a.id === shop.id)!.price_level).toBe('h2h')
    expect((await buy(app, shop, 'lv-admin-2', [{ item_id: item.id, quantity: 1 }])).json().data.price).toBe(18_500)

    const wrong = await call('PATCH', `/resellers/${shop.id}`, { price_level: 'nope', max_active_locks: 3 })
    expect(wrong.statusCode).toBe(422)
    expect(fields(wrong)).toEqual(['price_level'])
    // Nothing of the refused update applied.
    expect((await admin(app, 'GET', `/resellers/${shop.id}`)).max_active_locks).not.toBe(3)
  })

  it('audits level, rule, hand-set price and reseller level changes', async () => {
    const before = await latestAuditId(ctx)
    await admin(app, 'POST', '/price-levels', { code: 'audited', name: 'Audited' })
    await admin(app, 'PATCH', '/price-levels/audited', { name: 'Audited 2' })
    await admin(app, 'PUT', '/price-levels/audited/rules', { rules: [{ scope: 'all', percent: 1 }] })
    const item = await createItem(app, { price: 5_000 })
    await admin(app, 'PUT', `/items/${item.id}/level-prices`, { audited: 4_000 })
    const shop = await createReseller(app)
    await admin(app, 'PATCH', `/resellers/${shop.id}`, { price_level: 'audited' })

    const [created] = await auditSince(before, 'adminCreatePriceLevel')
    expect(created).toMatchObject({ target_type: 'price_levels', change: 'insert' })
    expect(created!.changes.code).toEqual({ before: null, after: 'audited' })
    const renamed = (await auditSince(before, 'adminUpdatePriceLevel')).find((r) => r.target_type === 'price_levels')
    expect(renamed!.changes.name).toEqual({ before: 'Audited', after: 'Audited 2' })
    const rule = (await auditSince(before, 'adminPutLevelRules')).find((r) => r.target_type === 'price_level_rules')
    expect(rule).toMatchObject({ change: 'insert' })
    const manual = (await auditSince(before, 'adminPutItemLevelPrices')).find((r) => r.target_type === 'item_level_prices')
    expect(manual!.changes.price).toEqual({ before: 5_050, after: 4_000 })
    const account = (await auditSince(before, 'adminUpdateReseller')).find((r) => r.target_type === 'accounts')
    expect(account!.target_id).toBe(String(shop.id))
    expect(account!.changes).toHaveProperty('price_level_id')
  })
})
