import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { buy, relayEvents } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { createLeaderboardCache } from './leaderboard-snapshot.js'
import { maskName, profile as readProfile } from './leaderboard.service.js'

const { app, ctx } = await createTestApp()

// Completed orders count when the relay takes their events: every read here relays first.
async function profile(r: Reseller, month?: string, on: Pick<TestApp, 'app' | 'ctx'> = { app, ctx }) {
  await relayEvents(on.ctx)
  const res = await get(on.app, `/leaderboard/profile${month ? `?month=${month}` : ''}`, r)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { rank: number; total_transactions: number; points: number; month: string }
}
const counted = async (r: Reseller) => {
  const { total_transactions, points } = await profile(r)
  return { total_transactions, points }
}
/** Adds to an account's month as the relay's count would (leaderboard.sql), for months a test cannot buy in. */
const addToMonth = (db: TestApp['ctx']['db'], accountId: number, month: string, amount: number) =>
  sql`INSERT INTO leaderboard_months AS m (account_id, month, transactions, amount) VALUES (${accountId}, ${month}::date, 1, ${amount})
      ON CONFLICT (account_id, month) DO UPDATE SET transactions = m.transactions + 1, amount = m.amount + EXCLUDED.amount`.execute(db)
async function bought(r: Reseller, ref: string, carts: { item_id: number; quantity: number; note?: string }[], on = app) {
  const res = await buy(on, r, ref, carts)
  expect(res.statusCode, res.body).toBe(200)
  return (await admin(on, 'GET', `/transactions/${res.json().data.id}`)) as { id: number; items: { id: number }[] }
}
const jakartaMonth = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta', year: 'numeric', month: '2-digit' }).format(at).slice(0, 7)

describe('points and transactions of the month', () => {
  it('counts completed purchases: points = floor(the month’s net completed amount / 1000)', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const auto = await createAutoItem(app, 5, { price: 1_500 })
    expect(await profile(r)).toMatchObject({ total_transactions: 0, points: 0, month: jakartaMonth(new Date()) })
    await bought(r, 'a-1', [{ item_id: auto.id, quantity: 1 }])
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 1 })
    // Rp 3,000 over two purchases is 3 points: the month's total is rounded down, not each purchase.
    await bought(r, 'a-2', [{ item_id: auto.id, quantity: 1 }])
    expect(await counted(r)).toEqual({ total_transactions: 2, points: 3 })
    await bought(r, 'a-3', [{ item_id: auto.id, quantity: 2 }])
    expect(await counted(r)).toEqual({ total_transactions: 3, points: 6 })
  })

  it('counts an order once, when the relay takes its completion from the outbox; not a row an older version wrote (it counted its order itself)', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const auto = await createAutoItem(app, 5, { price: 2_000 })
    const months = () => ctx.db.selectFrom('leaderboard_months').select(['transactions', 'amount']).where('account_id', '=', r.id).execute()
    await bought(r, 'o-1', [{ item_id: auto.id, quantity: 1 }])
    // The sale wrote no leaderboard row: its outbox row carries the count.
    expect(await months()).toEqual([])
    expect(await relayEvents(ctx)).toBeGreaterThanOrEqual(1)
    expect(await months()).toEqual([{ transactions: 1, amount: 2_000 }])
    expect(await relayEvents(ctx)).toBe(0)
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 2 })

    // During a rolling deploy an older process counts in its own transaction and leaves the flag off.
    const old = await bought(r, 'o-2', [{ item_id: auto.id, quantity: 1 }])
    await sql`UPDATE outbox_events SET leaderboard_counts = false WHERE order_id = ${old.id}`.execute(ctx.db)
    const { rows } = await sql<{
      month: string
    }>`SELECT leaderboard_month(finished_at)::text AS month FROM orders WHERE id = ${old.id}`.execute(ctx.db)
    await addToMonth(ctx.db, r.id, rows[0].month, 2_000)
    expect(await counted(r)).toEqual({ total_transactions: 2, points: 4 })
    await assertInvariants(ctx.db)
  })

  it('counts a manual order when the operator sends it, not while it is paid', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const manual = await createItem(app, { order_process: 'manual', price: 2_000, unlimited_stock: true })
    const order = await bought(r, 'm-1', [{ item_id: manual.id, quantity: 1 }])
    expect(await counted(r)).toEqual({ total_transactions: 0, points: 0 })
    await admin(app, 'POST', `/transactions/${order.id}/items/${order.items[0].id}/send`, { product_license: 'code' })
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 2 })
  })

  it('leaves refunded parts out: a cancel of one manual line counts the delivered rest; a canceled order counts nothing', async () => {
    const r = await createReseller(app, { balance: 1_000_000 })
    const auto = await createAutoItem(app, 5, { price: 3_000 })
    const manual = await createItem(app, { order_process: 'manual', price: 5_000, unlimited_stock: true })
    const mixed = await bought(r, 'p-1', [
      { item_id: auto.id, quantity: 1 },
      { item_id: manual.id, quantity: 1 },
    ])
    expect(await counted(r)).toEqual({ total_transactions: 0, points: 0 })
    expect((await admin(app, 'POST', `/transactions/${mixed.id}/cancel`, { reason: 'out of codes' })).status).toBe('completed')
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 3 })

    // Two manual lines: one sent, then the order canceled: Rp 5,000 of Rp 15,000 counts.
    const two = await bought(r, 'p-2', [
      { item_id: manual.id, quantity: 1 },
      { item_id: manual.id, quantity: 2 },
    ])
    await admin(app, 'POST', `/transactions/${two.id}/items/${two.items[0].id}/send`, { product_license: 'code' })
    expect(await counted(r)).toEqual({ total_transactions: 1, points: 3 })
    expect((await admin(app, 'POST', `/transactions/${two.id}/cancel`, { reason: 'gone' })).status).toBe('completed')
    expect(await counted(r)).toEqual({ total_transactions: 2, points: 8 })

    const none = await bought(r, 'p-3', [{ item_id: manual.id, quantity: 4 }])
    expect((await admin(app, 'POST', `/transactions/${none.id}/cancel`, { reason: 'gone' })).status).toBe('canceled')
    expect(await counted(r)).toEqual({ total_transactions: 2, points: 8 })
    await assertInvariants(ctx.db)
  })

  it('answers 422 VALIDATION_ERROR on month for anything but YYYY-MM', async () => {
    const r = await createReseller(app)
    for (const month of ['2026-13', '2026-1', '2026-00', '0999-01', 'abc', '2026-01-01', '202601']) {
      for (const path of ['/leaderboard/profile', '/leaderboard']) {
        const res = await get(app, `${path}?month=${month}`, r)
        expect([path, month, res.statusCode, res.json().message, Object.keys(res.json().errors ?? {})]).toEqual([
          path,
          month,
          422,
          'VALIDATION_ERROR',
          ['month'],
        ])
      }
    }
  })
})

describe('months in LEADERBOARD_TZ', () => {
  /** A paid manual order completed as settleOrder would (its outbox row counts it), at a chosen instant (the database clock cannot be set). */
  async function completeAt(on: Pick<TestApp, 'app' | 'ctx'>, r: Reseller, ref: string, at: string) {
    const item = await createItem(on.app, { order_process: 'manual', price: 4_000, unlimited_stock: true })
    const order = await bought(r, ref, [{ item_id: item.id, quantity: 1 }], on.app)
    await on.ctx.db.transaction().execute(async (trx) => {
      await sql`UPDATE order_lines SET status = 'sent' WHERE order_id = ${order.id}`.execute(trx)
      await sql`UPDATE orders SET status = 'completed', finished_at = ${at}::timestamptz WHERE id = ${order.id}`.execute(trx)
      await sql`INSERT INTO outbox_events (account_id, events, order_id, leaderboard_counts)
                VALUES (${r.id}, '{order.completed}', ${order.id}, true)`.execute(trx)
    })
  }

  it('counts a completion at 23:30 UTC on the last day of a month in the next month (Asia/Jakarta, UTC+7)', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    await completeAt({ app, ctx }, r, 'tz-1', '2026-01-31T23:30:00Z')
    await completeAt({ app, ctx }, r, 'tz-2', '2026-01-31T16:59:59Z')
    expect(await profile(r, '2026-02')).toEqual({ month: '2026-02', rank: 1, total_transactions: 1, points: 4 })
    expect(await profile(r, '2026-01')).toEqual({ month: '2026-01', rank: 1, total_transactions: 1, points: 4 })
    expect(await profile(r, '2025-12')).toMatchObject({ total_transactions: 0, points: 0 })
    await assertInvariants(ctx.db)
  })

  it('follows the configured zone: with LEADERBOARD_TZ=UTC the same instant stays in its month', async () => {
    const utc = await createTestApp({ LEADERBOARD_TZ: 'UTC' })
    const r = await createReseller(utc.app, { balance: 100_000 })
    await completeAt(utc, r, 'tz-1', '2026-01-31T23:30:00Z')
    expect(await profile(r, '2026-01', utc)).toMatchObject({ total_transactions: 1, points: 4 })
    expect(await profile(r, '2026-02', utc)).toMatchObject({ total_transactions: 0, points: 0 })
  })
})

describe('rank and the top ten', () => {
  it('shares a rank between ties and ranks an account without completions after every account with one (even at 0 points), with zeros', async () => {
    const own = await createTestApp()
    const item = (price: number) => createAutoItem(own.app, 2, { price })
    const [five, three, half] = [await item(5_000), await item(3_000), await item(500)]
    const shop = (name: string) => createReseller(own.app, { balance: 100_000, name })
    const [top, tieA, tieB, small, idle] = [
      await shop('Abadi Gaming'),
      await shop('Bintang'),
      await shop('Cu'),
      await shop('Dewi'),
      await shop('Eko'),
    ]
    await bought(top, 'r-1', [{ item_id: five.id, quantity: 1 }], own.app)
    await bought(tieA, 'r-2', [{ item_id: three.id, quantity: 1 }], own.app)
    await bought(tieB, 'r-3', [{ item_id: three.id, quantity: 1 }], own.app)
    await bought(small, 'r-4', [{ item_id: half.id, quantity: 1 }], own.app)
    const month = jakartaMonth(new Date())
    expect(await profile(top, undefined, own)).toEqual({ month, rank: 1, total_transactions: 1, points: 5 })
    expect(await profile(tieA, undefined, own)).toEqual({ month, rank: 2, total_transactions: 1, points: 3 })
    expect(await profile(tieB, undefined, own)).toEqual({ month, rank: 2, total_transactions: 1, points: 3 })
    // Rp 500 is an active month with 0 points: rank = 1 + accounts with more points.
    expect(await profile(small, undefined, own)).toEqual({ month, rank: 4, total_transactions: 1, points: 0 })
    // No completion this month: after all four active accounts, the 0-point one included.
    expect(await profile(idle, undefined, own)).toEqual({ month, rank: 5, total_transactions: 0, points: 0 })

    const res = await get(own.app, '/leaderboard', idle)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      message: 'OK',
      data: [
        { rank: 1, display_name: 'Ab***ng', total_transactions: 1, points: 5 },
        { rank: 2, display_name: 'Bi***ng', total_transactions: 1, points: 3 },
        { rank: 2, display_name: 'C***', total_transactions: 1, points: 3 },
        { rank: 4, display_name: 'D***i', total_transactions: 1, points: 0 },
      ],
    })
    await assertInvariants(own.ctx.db)
  })

  it('lists ten of a past month, ranked across ties at the tenth place; reads nothing of other months', async () => {
    const own = await createTestApp()
    const shops: Reseller[] = []
    for (let i = 0; i < 12; i++) shops.push(await createReseller(own.app, { name: `Shop number ${String(i).padStart(2, '0')}` }))
    // Points 12, 11, …, 4, then 3, 3, 3: the tenth place is a three-way tie.
    for (const [i, s] of shops.entries()) await addToMonth(own.ctx.db, s.id, '2025-03-01', Math.max(12 - i, 3) * 1000)
    const res = await get(own.app, '/leaderboard?month=2025-03', shops[0])
    const data = res.json().data as { rank: number; display_name: string; points: number }[]
    expect(data.map((l) => [l.rank, l.points])).toEqual([...[12, 11, 10, 9, 8, 7, 6, 5, 4].map((p, i) => [i + 1, p]), [10, 3]])
    expect(data[0].display_name).toBe('Sh***00')
    expect(await profile(shops[11], '2025-03', own)).toMatchObject({ rank: 10, points: 3 })
    expect((await get(own.app, '/leaderboard?month=2025-04', shops[0])).json()).toEqual({ message: 'OK', data: [] })
    expect((await get(own.app, '/leaderboard', shops[0])).json()).toEqual({ message: 'OK', data: [] })
  })

  it('ranks against a snapshot of the month: others’ sales show when it is renewed, the caller’s own points at once, up or down', async () => {
    // A snapshot that never ages: only invalidate() renews it, so what it lags is deterministic.
    const own = await createTestApp()
    const db = own.ctx.db
    const board = createLeaderboardCache(db, 3_600_000)
    const [a, b, c, idle] = [
      await createReseller(own.app),
      await createReseller(own.app),
      await createReseller(own.app),
      await createReseller(own.app),
    ]
    const add = (r: Reseller, amount: number) => addToMonth(db, r.id, '2024-06-01', amount)
    const rank = async (r: Reseller) => (await readProfile(own.ctx.prepared, board, r.id, '2024-06')).rank
    await add(a, 5_000)
    await add(b, 3_000)
    expect([await rank(a), await rank(b), await rank(idle)]).toEqual([1, 2, 3])
    // c's 10 points are not in the snapshot yet: b keeps rank 2, c (exact 10, above everyone seen) is first.
    await add(c, 10_000)
    expect([await rank(b), await rank(c), await rank(idle)]).toEqual([2, 1, 3])
    // b's own points are exact: 7 is above a's 5 (b's stale entry of 3 is not counted against it).
    await add(b, 4_000)
    expect(await readProfile(own.ctx.prepared, board, b.id, '2024-06')).toMatchObject({ points: 7, total_transactions: 2, rank: 1 })
    // Down to 2, as a refund of a completed order would take it: b's stale entry of 3 must not rank it behind itself.
    await sql`UPDATE leaderboard_months SET amount = amount - 5000 WHERE account_id = ${b.id} AND month = '2024-06-01'`.execute(db)
    expect(await readProfile(own.ctx.prepared, board, b.id, '2024-06')).toMatchObject({ points: 2, total_transactions: 2, rank: 2 })
    board.invalidate()
    expect([await rank(c), await rank(a), await rank(b), await rank(idle)]).toEqual([1, 2, 3, 4])
  })

  it('masks names: first two and last two characters around three stars, fewer for short names', () => {
    expect(['Abadi Gaming', 'Abcde', 'Abcd', 'Abc', 'Ab', 'A', '', '  Toko Jaya  ', '😀ab😀cd😀'].map(maskName)).toEqual([
      'Ab***ng',
      'Ab***de',
      'A***d',
      'A***c',
      'A***',
      'A***',
      '***',
      'To***ya',
      '😀a***d😀',
    ])
  })
})
