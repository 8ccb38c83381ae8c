import { sql } from 'kysely'
import { afterAll, expect, it } from 'vitest'
import { pruneOldRecords } from '../src/workers/retention.js'
import { createTestApp } from './app.js'
import { admin, createItem } from './factory.js'
import { subscriber } from './factory-webhooks.js'
import { assertDeliveryTotals } from './invariants.js'
import { startReceiver } from './receiver.js'
import { addSimulatedProviders, startUpstreams } from './upstreams.js'

// What the retention worker deletes and what it keeps, across webhooks, bills and suppliers: each
// kind of row made by the real flow, then some of them made old by moving their time back.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000', RETENTION_DAYS: '30' })
const up = await startUpstreams()
const receiver = await startReceiver()
afterAll(async () => {
  await up.close()
  await receiver.close()
})

// The books (docs/design.md §12: kept ten years), never pruned however old.
const BOOKS = ['orders', 'order_lines', 'dispatches', 'ledger_entries', 'audit_log'] as const
type Counted = 'webhook_deliveries' | 'bill_inquiries' | 'supplier_changes' | (typeof BOOKS)[number]
const count = async (table: Counted) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(ctx.db)).rows[0].n)
const books = async () => Object.fromEntries(await Promise.all(BOOKS.map(async (t) => [t, await count(t)] as const)))

/** Moves every row of the books back `days`: the audit log refuses updates, so its guard is skipped for this one statement. */
async function ageBooks(days: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const back = sql.raw(`interval '${days} days'`)
    await sql`UPDATE orders SET created_at = created_at - ${back}, updated_at = updated_at - ${back}, finished_at = finished_at - ${back}`.execute(
      trx,
    )
    await sql`UPDATE order_lines SET delivered_at = delivered_at - ${back}`.execute(trx)
    await sql`UPDATE dispatches SET created_at = created_at - ${back}, finished_at = finished_at - ${back}`.execute(trx)
    await sql`UPDATE ledger_entries SET created_at = created_at - ${back}`.execute(trx)
    await sql`SET LOCAL session_replication_role = replica`.execute(trx)
    await sql`UPDATE audit_log SET at = at - ${back}`.execute(trx)
  })
}

it('deletes finished deliveries and change logs past RETENTION_DAYS and inquiries expired unpaid, and keeps the rest and the books', async () => {
  await addSimulatedProviders(app, up, { panel: false })
  const r = await subscriber(app, receiver.url)
  for (let i = 0; i < 3; i++) {
    const sent = await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })
    expect(sent.statusCode, sent.body).toBe(200)
  }
  const [old, recent, open] = (await sql<{ id: string }>`SELECT id FROM webhook_deliveries ORDER BY id`.execute(ctx.db)).rows.map(
    (d) => d.id,
  )
  await sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE id IN (${old}, ${open})`.execute(ctx.db)
  await sql`UPDATE webhook_deliveries SET created_at = now() - interval '29 days' WHERE id = ${recent}`.execute(ctx.db)
  // Still being retried: never deleted, however old.
  await sql`UPDATE webhook_deliveries SET status = 'retrying', next_attempt_at = now() WHERE id = ${open}`.execute(ctx.db)

  const pln = await createItem(app, {
    order_process: 'h2h',
    price: 3_000,
    unlimited_stock: true,
    provider: 'dgf',
    provider_code: 'pln',
    provider_meta: { postpaid: true },
  })
  const ask = (customer_id: string) =>
    app.inject({ method: 'POST', url: '/api/v1/trx/tagihan/inquiry', headers: r.headers, payload: { item_id: pln.id, customer_id } })
  const inquiries = []
  for (const customer of ['530000000001', '530000000002', '530000000003']) inquiries.push((await ask(customer)).json().data.inquiry_id)
  const paid = await app.inject({
    method: 'POST',
    url: '/api/v1/trx/tagihan',
    headers: r.headers,
    payload: { ref_id: 'kept-bill', item_id: pln.id, customer_id: '530000000003', inquiry_id: inquiries[2] },
  })
  expect(paid.statusCode, paid.body).toBe(200)
  // The first expired two days ago, the second an hour ago (within the day of grace), the third was paid.
  await sql`UPDATE bill_inquiries SET expires_at = now() - interval '2 days' WHERE id IN (${inquiries[0]}, ${inquiries[2]})`.execute(ctx.db)
  await sql`UPDATE bill_inquiries SET expires_at = now() - interval '1 hour' WHERE id = ${inquiries[1]}`.execute(ctx.db)

  await admin(app, 'POST', '/providers/dgf/sync?force=true')
  const changes = await count('supplier_changes')
  expect(changes).toBeGreaterThan(2)
  await sql`UPDATE supplier_changes SET at = now() - interval '31 days' WHERE id IN (SELECT id FROM supplier_changes ORDER BY id LIMIT 2)`.execute(
    ctx.db,
  )

  // The books, all of them older than RETENTION_DAYS (30) by far, with some of every kind.
  await ageBooks(400)
  const kept = await books()
  for (const table of BOOKS) expect(kept[table], table).toBeGreaterThan(0)
  const stale = await sql<{ n: string }>`SELECT count(*) AS n FROM orders WHERE created_at > now() - interval '31 days'`.execute(ctx.db)
  expect(Number(stale.rows[0].n)).toBe(0)

  expect(await pruneOldRecords(ctx)()).toEqual({ webhook_deliveries: 1, supplier_changes: 2, bill_inquiries: 1 })
  expect(await books()).toEqual(kept)
  const deliveries = (await sql<{ id: string }>`SELECT id FROM webhook_deliveries ORDER BY id`.execute(ctx.db)).rows.map((d) => d.id)
  expect(deliveries).toEqual([recent, open])
  await assertDeliveryTotals(ctx.db)
  const left = (await sql<{ id: string }>`SELECT id FROM bill_inquiries ORDER BY id`.execute(ctx.db)).rows.map((b) => String(b.id))
  expect(left).toEqual([String(inquiries[1]), String(inquiries[2])])
  expect(await count('supplier_changes')).toBe(changes - 2)
  // A second pass finds nothing more, and the books are whole.
  expect(await pruneOldRecords(ctx)()).toEqual({ webhook_deliveries: 0, supplier_changes: 0, bill_inquiries: 0 })
  expect(await books()).toEqual(kept)
})
