import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from './app.js'
import { admin, createAutoItem, createItem, createReseller } from './factory.js'
import { balanceOf, buy, relayEvents } from './factory-orders.js'
import { assertInvariants } from './invariants.js'
import {
  createPriceLevel,
  replaceLevelRules,
  setAccountLevel,
  setItemLevelPrices,
  updatePriceLevel,
} from '../src/modules/price-levels/index.js'

// Price levels (docs/design.md §5d) where money moves: the purchase, the sandbox and the lock are priced
// at the buyer's level, by the most specific rule, rounded up, a hand-set price winning; a level
// change applies to the next request. Both databases.
const { app, ctx } = await createTestApp()
const db = ctx.db
let ref = 0
const nextRef = () => `PL-${++ref}`

const levelPrice = async (itemId: number, code: string) =>
  (
    await sql<{ price: string }>`SELECT lp.price FROM item_level_prices lp JOIN price_levels l ON l.id = lp.level_id
                                  WHERE lp.item_id = ${itemId} AND l.code = ${code}`.execute(db)
  ).rows[0]?.price

describe('price levels', () => {
  it('a fresh install has one default level, reseller, at every item’s own price', async () => {
    const item = await createItem(app, { price: 12_345 })
    const { rows } = await sql<{ code: string; is_default: boolean }>`SELECT code, is_default FROM price_levels`.execute(db)
    expect(rows).toEqual([{ code: 'reseller', is_default: true }])
    expect(Number(await levelPrice(item.id, 'reseller'))).toBe(12_345)
    const shop = await createReseller(app, { balance: 50_000 })
    const bought = await buy(app, shop, nextRef(), [{ item_id: (await createAutoItem(app, 1, { price: 12_345 })).id, quantity: 1 }])
    expect(bought.json().data.price).toBe(12_345)
  })

  it('the most specific rule prices: item > brand with category > brand > category > all, rounded up', async () => {
    await createPriceLevel(db, { code: 'member', name: 'Member' })
    const ml = await createItem(app, { price: 10_000, product_name: 'Brand X', category: 'Level Games' })
    const mlOther = await createItem(app, { price: 10_000, product_name: 'Brand X', category: 'Level Other' })
    const plain = await createItem(app, { price: 10_000, product_name: 'Plain', category: 'Level Games' })
    const lone = await createItem(app, { price: 10_000, product_name: 'Lone', category: 'Level Other' })
    const special = await createItem(app, { price: 10_000, product_name: 'Brand X', category: 'Level Games' })
    const games = await db.selectFrom('categories').select('id').where('name', '=', 'Level Games').executeTakeFirstOrThrow()
    await replaceLevelRules(db, 'member', [
      { scope: 'all', percent: 1, round_to: 1 },
      { scope: 'category', category_id: games.id, percent: 2, round_to: 1 },
      { scope: 'brand', brand: 'brand x', percent: 3, round_to: 1 },
      { scope: 'brand', brand: 'BRAND X', category_id: games.id, percent: 4, flat: 7, round_to: 50 },
      { scope: 'item', item_id: special.id, percent: -10, round_to: 1000 },
    ])
    expect(Number(await levelPrice(lone.id, 'member'))).toBe(10_100)
    expect(Number(await levelPrice(plain.id, 'member'))).toBe(10_200)
    expect(Number(await levelPrice(mlOther.id, 'member'))).toBe(10_300)
    // 10,400 + 7 = 10,407, up to 50: 10,450.
    expect(Number(await levelPrice(ml.id, 'member'))).toBe(10_450)
    expect(Number(await levelPrice(special.id, 'member'))).toBe(9_000)
    // The default level is untouched.
    expect(Number(await levelPrice(ml.id, 'reseller'))).toBe(10_000)
  })

  it('an account pays its level’s price in a purchase, the sandbox and a lock, from its next request on', async () => {
    const item = await createAutoItem(app, 10, { price: 20_000, product_name: 'Levelled' })
    await createPriceLevel(db, { code: 'vip', name: 'VIP' })
    await replaceLevelRules(db, 'vip', [{ scope: 'item', item_id: item.id, percent: -5, round_to: 100 }])
    const shop = await createReseller(app, { balance: 100_000 })
    // Warm the authentication cache at the default level: the move must still apply at once.
    expect((await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 1 }])).json().data.price).toBe(20_000)
    await setAccountLevel(db, shop.id, 'vip')
    const bought = await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 2 }])
    expect(bought.json().data).toMatchObject({ price: 38_000, amount: 38_000 })
    expect(await balanceOf(app, shop)).toBe(100_000 - 20_000 - 38_000)
    const { rows } = await sql<{ unit_price: string; price_level_id: string }>`
      SELECT l.unit_price, o.price_level_id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.ref_id = ${`PL-${ref}`}`.execute(
      db,
    )
    expect(Number(rows[0]!.unit_price)).toBe(19_000)
    const sandbox = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: shop.headers,
      payload: { ref_id: nextRef(), item_id: item.id, quantity: 1 },
    })
    expect(sandbox.statusCode).toBe(200)
    const stored = await db.selectFrom('sandbox_orders').select('amount').where('ref_id', '=', `PL-${ref}`).executeTakeFirstOrThrow()
    expect(Number(stored.amount)).toBe(19_000)
    // The lock's worth is counted at the level's price: 2 × 19,000 fits the 42,000 left, 3 would not.
    const lock = (quantity: number) =>
      app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: shop.headers, payload: { item_id: item.id, quantity } })
    const refused = await lock(3)
    expect(refused.json()).toMatchObject({ message: 'BALANCE_IS_INSUFFICIENT', data: { required: 57_000 } })
    expect((await lock(2)).statusCode).toBe(201)
  })

  it('a price set by hand wins over the rules until cleared', async () => {
    const item = await createAutoItem(app, 3, { price: 5_000, product_name: 'Handset' })
    await createPriceLevel(db, { code: 'partner', name: 'Partner' })
    await replaceLevelRules(db, 'partner', [{ scope: 'all', percent: -20, round_to: 1 }])
    expect(Number(await levelPrice(item.id, 'partner'))).toBe(4_000)
    const set = await setItemLevelPrices(db, item.id, { partner: 4_321 })
    expect(set.find((p) => p.level === 'partner')).toMatchObject({ price: 4_321, manual: true })
    await replaceLevelRules(db, 'partner', [{ scope: 'all', percent: -30, round_to: 1 }])
    expect(Number(await levelPrice(item.id, 'partner'))).toBe(4_321)
    // The item's own price moves: a hand-set level price stays, a ruled one follows.
    await admin(app, 'PATCH', `/items/${item.id}`, { price: 6_000 })
    expect(Number(await levelPrice(item.id, 'partner'))).toBe(4_321)
    await setItemLevelPrices(db, item.id, { partner: null })
    expect(Number(await levelPrice(item.id, 'partner'))).toBe(4_200)
    await assertInvariants(db)
  })

  it('the margin report sums per level: each order at the level its buyer was on when it bought', async () => {
    const item = await createAutoItem(app, 4, { price: 8_000, product_name: 'Margin Levelled' })
    await createPriceLevel(db, { code: 'margin-a', name: 'Margin A' })
    await replaceLevelRules(db, 'margin-a', [{ scope: 'item', item_id: item.id, percent: 25, round_to: 1 }])
    const shop = await createReseller(app, { balance: 100_000 })
    await setAccountLevel(db, shop.id, 'margin-a')
    expect((await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 2 }])).json().data.price).toBe(20_000)
    // Moved back: the order it bought stays on margin-a's row.
    await setAccountLevel(db, shop.id, 'reseller')
    const report = await admin(app, 'GET', '/reports/margin?group=level')
    expect(report.rows.find((r: { label: string }) => r.label === 'margin-a')).toMatchObject({ orders: 1, revenue: 20_000 })
  })

  it('promotion: reaching a level’s monthly count moves the account up once, in the audit log as promotion', async () => {
    const item = await createAutoItem(app, 6, { price: 1_000, product_name: 'Promoted' })
    await createPriceLevel(db, { code: 'gold', name: 'Gold' })
    await createPriceLevel(db, { code: 'starter', name: 'Starter', promote_at: 2, promote_to: 'gold' })
    const shop = await createReseller(app, { balance: 100_000 })
    await setAccountLevel(db, shop.id, 'starter')
    const levelOf = async () =>
      (
        await db
          .selectFrom('accounts as a')
          .innerJoin('price_levels as l', 'l.id', 'a.price_level_id')
          .select('l.code')
          .where('a.id', '=', shop.id)
          .executeTakeFirstOrThrow()
      ).code
    await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 1 }])
    await relayEvents(ctx)
    expect(await levelOf()).toBe('starter')
    await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 1 }])
    await relayEvents(ctx)
    expect(await levelOf()).toBe('gold')
    const { rows } = await sql<{ actor: string; action: string; changes: Record<string, unknown> }>`
      SELECT actor, action, changes FROM audit_log WHERE target_type = 'accounts' AND target_id = ${String(shop.id)} AND actor = 'promotion'`.execute(
      db,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ action: 'promotePriceLevel', changes: { price_level_id: {} } })
    // Moved back by an operator: the promotion from starter happened once and does not repeat.
    await setAccountLevel(db, shop.id, 'starter')
    await buy(app, shop, nextRef(), [{ item_id: item.id, quantity: 1 }])
    await relayEvents(ctx)
    expect(await levelOf()).toBe('starter')
    // No promotion without its two fields.
    await expect(updatePriceLevel(db, 'starter', { promote_to: null })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
  })

  it('a rule change racing purchases: every line is priced by one rule set or the other, never between', async () => {
    const item = await createAutoItem(app, 40, { price: 10_000, product_name: 'Raced' })
    await createPriceLevel(db, { code: 'raced', name: 'Raced' })
    const shop = await createReseller(app, { balance: 1_000_000 })
    await setAccountLevel(db, shop.id, 'raced')
    const sets = [
      [{ scope: 'all' as const, percent: 10, round_to: 1 as const }],
      [{ scope: 'all' as const, percent: 20, round_to: 1 as const }],
    ]
    const buying = Array.from({ length: 30 }, (_, i) => buy(app, shop, `race-${i}`, [{ item_id: item.id, quantity: 1 }]))
    const changing = (async () => {
      for (let i = 0; i < 10; i++) await replaceLevelRules(db, 'raced', sets[i % 2]!)
    })()
    const answers = await Promise.all(buying)
    await changing
    const prices = answers.map((a) => a.json().data.price)
    for (const price of prices) expect([10_000, 11_000, 12_000]).toContain(price)
    const { rows } = await sql<{ unit_price: string; amount: string }>`
      SELECT l.unit_price, o.amount FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.ref_id LIKE 'race-%'`.execute(db)
    expect(rows).toHaveLength(30)
    for (const row of rows) expect(Number(row.amount)).toBe(Number(row.unit_price))
    expect(await balanceOf(app, shop)).toBe(1_000_000 - prices.reduce((a, b) => a + b, 0))
    await assertInvariants(db)
  })
})
