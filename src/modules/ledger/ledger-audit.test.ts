import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin, createAutoItem, createItem, createReseller, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { AppError } from '../../errors.js'
import { findLedgerAudit, useReadOnlySnapshot } from './ledger-audit.queries.js'
import { auditLedger } from './ledger.service.js'

const { app, ctx } = await createTestApp()
const authorization = 'Bearer test-admin-token-0123456789'
const audit = (accountId: number) =>
  app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${accountId}/audit`, headers: { authorization } })
const failing = (data: { checks: { check: string; ok: boolean; expected: number; actual: number }[] }) =>
  data.checks.filter((c) => !c.ok).map(({ check, expected, actual }) => ({ check, expected, actual }))

/** A reseller with every kind of entry: a top-up paid, an adjustment, purchases (one free), a refund. */
async function busyReseller(): Promise<Reseller> {
  const shop = await createReseller(app, { balance: 100_000 })
  await admin(app, 'POST', '/channels', { code: `Q${shop.id}`, name: 'QRIS', type: 'qris', fee_flat: 750 })
  const topup = await app.inject({
    method: 'POST',
    url: '/api/v1/balance',
    headers: shop.headers,
    payload: { amount: 50_000, channel: `Q${shop.id}` },
  })
  expect(topup.statusCode, topup.body).toBe(200)
  await app.inject({ method: 'POST', url: `/api/admin/v1/topups/${topup.json().data.reference}/pay`, headers: { authorization } })
  const auto = await createAutoItem(app, 3, { price: 7_000 })
  const free = await createAutoItem(app, 1, { price: 0 })
  const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 11_000 })
  for (const [ref, item] of [
    ['au-1', auto.id],
    ['au-2', free.id],
    ['au-3', manual.id],
  ] as const)
    expect((await buy(app, shop, ref, [{ item_id: item, quantity: 1 }])).statusCode).toBe(200)
  const canceled = (await buy(app, shop, 'au-4', [{ item_id: manual.id, quantity: 2 }])).json().data
  await admin(app, 'POST', `/transactions/${canceled.id}/cancel`, { reason: 'test' })
  return shop
}

describe('GET /api/admin/v1/resellers/{id}/audit', () => {
  it('finds the books of a busy account consistent, every check with what it expected and found', async () => {
    const shop = await busyReseller()
    const res = await audit(shop.id)
    expect(res.statusCode, res.body).toBe(200)
    const { data } = res.json()
    // 100,000 opening + 50,000 top-up − 7,000 − 0 − 11,000 − 22,000 + 22,000 refunded.
    expect(data).toMatchObject({ account_id: shop.id, consistent: true, balance: 132_000, ledger_balance: 132_000, breaks: [] })
    expect(failing(data)).toEqual([])
    const byName = Object.fromEntries(data.checks.map((c: { check: string; actual: number }) => [c.check, c.actual]))
    expect(byName).toMatchObject({
      orders_debited_once: 3,
      orders_debited_in_full: 40_000,
      refunds_equal_lines_refunded: 22_000,
      topups_credited_once: 50_000,
      order_counter: 4,
      ledger_counter: data.entries,
    })
  })

  it('names a balance moved outside the ledger, and a ledger entry that does not follow from the one before', async () => {
    const shop = await busyReseller()
    await sql`UPDATE accounts SET balance = balance + 500 WHERE id = ${shop.id}`.execute(ctx.db)
    let data = (await audit(shop.id)).json().data
    expect(data.consistent).toBe(false)
    expect(failing(data)).toEqual([{ check: 'balance_equals_ledger', expected: 132_000, actual: 132_500 }])

    // An entry rewritten in place (its own arithmetic kept, which the table's CHECK guards): two links of the chain break.
    const { rows } = await sql<{ id: number }>`SELECT id FROM ledger_entries WHERE account_id = ${shop.id} ORDER BY id`.execute(ctx.db)
    const [tampered, next] = [rows[2].id, rows[3].id]
    await sql`UPDATE ledger_entries SET balance_before = balance_before + 9, balance_after = balance_after + 9 WHERE id = ${tampered}`.execute(
      ctx.db,
    )
    data = (await audit(shop.id)).json().data
    expect(failing(data)).toEqual([
      { check: 'balance_equals_ledger', expected: 132_000, actual: 132_500 },
      { check: 'ledger_chain', expected: 0, actual: 2 },
    ])
    // The rewritten entry starts 9 above where the one before left; the next starts 9 below where it leaves.
    expect(
      data.breaks.map((b: { entry_id: number; balance_before: number; expected: number }) => [b.entry_id, b.balance_before - b.expected]),
    ).toEqual([
      [tampered, 9],
      [next, -9],
    ])
  })

  it('names an order debited twice, a refund with no line behind it and a kept total gone wrong', async () => {
    const shop = await busyReseller()
    const [order] = (
      await sql<{
        id: number
        amount: number
      }>`SELECT id, amount FROM orders WHERE account_id = ${shop.id} AND amount > 0 ORDER BY id LIMIT 1`.execute(ctx.db)
    ).rows
    await ctx.db.transaction().execute(async (trx) => {
      await sql`SELECT post_ledger_entry(${shop.id}, 'debit', 'purchase', ${order.amount}::bigint, 'again', NULL, NULL, ${order.id}::bigint, NULL, NULL)`.execute(
        trx,
      )
      await sql`SELECT post_ledger_entry(${shop.id}, 'credit', 'refund', 1000::bigint, 'stray', NULL, NULL, NULL, NULL, NULL)`.execute(trx)
    })
    await sql`UPDATE accounts SET orders_count = orders_count + 1 WHERE id = ${shop.id}`.execute(ctx.db)
    const { data } = (await audit(shop.id)).json()
    // The ledger itself still adds up: the balance moved with each entry.
    expect(failing(data)).toEqual([
      { check: 'orders_debited_once', expected: 3, actual: 4 },
      { check: 'orders_debited_in_full', expected: 40_000, actual: 40_000 + order.amount },
      { check: 'refunds_equal_lines_refunded', expected: 22_000, actual: 23_000 },
      // post_ledger_entry counted the stray debit as an order, and the update one more.
      { check: 'order_counter', expected: 4, actual: 6 },
    ])
  })

  it('reads a long history in ranges with the same result, the chain followed across each range’s edge', async () => {
    const shop = await busyReseller()
    const whole = (await audit(shop.id)).json().data
    const { rows } = await sql<{ id: number }>`SELECT id FROM ledger_entries WHERE account_id = ${shop.id} ORDER BY id`.execute(ctx.db)
    expect(rows.length).toBe(6)
    for (const chunk of [1, 2, 3]) expect(await auditLedger(ctx.db, shop.id, { chunk })).toEqual(whole)

    // The fourth entry shifted: with ranges of three, its break is found from the balance the third range left.
    await sql`UPDATE ledger_entries SET balance_before = balance_before + 9, balance_after = balance_after + 9 WHERE id = ${rows[3].id}`.execute(
      ctx.db,
    )
    const expected = [
      { entry_id: rows[3].id, balance_before: expect.any(Number), expected: expect.any(Number) },
      { entry_id: rows[4].id, balance_before: expect.any(Number), expected: expect.any(Number) },
    ]
    for (const chunk of [3, 4, 1000]) {
      const ranged = await auditLedger(ctx.db, shop.id, { chunk })
      expect(ranged.breaks, `ranges of ${chunk}`).toEqual(expected)
      expect(ranged.checks.find((c) => c.check === 'ledger_chain')?.actual).toBe(2)
      expect(ranged.consistent).toBe(false)
    }
  })

  it('lists the first 20 breaks in id order and counts every one, whatever the ranges', async () => {
    const shop = await createReseller(app, { balance: 1_000 })
    for (let i = 0; i < 29; i++) await admin(app, 'POST', `/resellers/${shop.id}/balance`, { amount: 100 + i, reason: `credit ${i}` })
    const { rows } = await sql<{ id: number }>`SELECT id FROM ledger_entries WHERE account_id = ${shop.id} ORDER BY id`.execute(ctx.db)
    expect(rows.length).toBe(30)
    // Entries 1, 3, … 25 shifted by 9: each breaks itself and the entry after it, 26 breaks in a row.
    const shifted = rows.filter((_, i) => i % 2 === 1 && i <= 25).map((r) => r.id)
    await sql`UPDATE ledger_entries SET balance_before = balance_before + 9, balance_after = balance_after + 9
               WHERE id IN (${sql.join(shifted)})`.execute(ctx.db)
    const first20 = rows.slice(1, 21).map((r, i) => [r.id, i % 2 === 0 ? 9 : -9])
    for (const chunk of [1, 4, 7, 1000]) {
      const ranged = await auditLedger(ctx.db, shop.id, { chunk })
      expect(ranged.checks.find((c) => c.check === 'ledger_chain')?.actual, `ranges of ${chunk}`).toBe(26)
      expect(ranged.breaks.map((b) => [b.entry_id, b.balance_before - b.expected])).toEqual(first20)
      expect(failing(ranged)).toEqual([{ check: 'ledger_chain', expected: 0, actual: 26 }])
    }
  })

  it('stops at its time limit between ranges and says how far it read, a 503 rather than a connection dropped', async () => {
    const shop = await busyReseller()
    const cut = await auditLedger(ctx.db, shop.id, { chunk: 2, timeLimitMs: 0 }).catch((error: unknown) => error)
    expect(cut).toBeInstanceOf(AppError)
    // The first range read three entries (two and the one it starts from), of the six the account keeps.
    expect(cut).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      data: { audit: 'unfinished', time_limit_ms: 0, entries_read: 3, entries: 6, orders_read: 0, orders: 4 },
    })
  })

  it.skipIf(!onPostgres)('takes no lock a purchase waits for: one completes mid-audit, which answers as of its snapshot', async () => {
    const shop = await busyReseller()
    const item = await createAutoItem(app, 1, { price: 5_000 })
    let ranges = 0
    const books = await ctx.db.transaction().execute(async (trx) => {
      await useReadOnlySnapshot(trx)
      return findLedgerAudit(trx, shop.id, 2, async () => {
        if (ranges++ === 0) expect((await buy(app, shop, 'mid-audit', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
      })
    })
    expect(ranges).toBeGreaterThan(1)
    expect(books).toMatchObject({ balance: 132_000, ledger_balance: 132_000, entries: 6, orders: 4, break_count: 0 })
    expect((await audit(shop.id)).json().data).toMatchObject({ consistent: true, balance: 127_000, entries: 7 })
  })

  it('answers 404 ACCOUNT_NOT_FOUND for an unknown account', async () => {
    const res = await audit(999_999)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  })
})
