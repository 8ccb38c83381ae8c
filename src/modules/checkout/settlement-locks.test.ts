import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/app.js'
import { onPostgres } from '../../../test/database.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { openPostgres } from '../../db/database.js'
import type { Dispatch } from '../../db/schema.js'
import { recordFinal } from './settlement.js'

// Two sessions (PostgreSQL only): a purchase's debit holds its account's row until it commits, and
// an upstream answer that closes an order of that account must not wait for it (nor hold the row
// against the next purchases): the order list's version lives in account_order_settles.
describe.skipIf(!onPostgres)('recording an answer while a purchase holds the account (PostgreSQL)', () => {
  it('closes the order and moves its list version without the account row', async () => {
    // Made in the test, not while the suite is collected (on PGlite there is no server to connect to);
    // the two sessions close before the test's database is dropped.
    const { app, ctx, databaseUrl } = await createTestApp()
    // The recording's own connection: a lock wait there fails the statement instead of hanging the test.
    const recorder = await openPostgres(databaseUrl!, 1, { settings: ['lock_timeout=5s'] })
    const purchase = new pg.Client({ connectionString: databaseUrl })
    await purchase.connect()
    try {
      await heldWhileRecording(app, ctx, recorder.db, purchase)
    } finally {
      await Promise.all([recorder.close(), purchase.end()])
    }
  })
})

async function heldWhileRecording(
  app: TestApp['app'],
  ctx: TestApp['ctx'],
  recorderDb: Awaited<ReturnType<typeof openPostgres>>['db'],
  purchase: pg.Client,
) {
  await admin(app, 'POST', '/providers', { code: 'locks', kind: 'digiflazz', base_url: 'http://127.0.0.1:9' })
  const item = await createItem(app, { order_process: 'h2h', unlimited_stock: true, provider: 'locks', provider_code: 'x1' })
  const shop = await createReseller(app, { balance: 1_000_000 })
  expect((await buy(app, shop, 'held-1', [{ item_id: item.id, quantity: 1, note: '0812' }])).statusCode).toBe(200)
  // As a claim leaves it: sent, awaiting the provider's answer.
  const d = (await sql<Dispatch>`UPDATE dispatches SET status = 'pending', attempts = 1, first_sent_at = now() RETURNING *`.execute(ctx.db))
    .rows[0]!
  const versionOf = async () =>
    (await sql<{ n: string | null }>`SELECT settles AS n FROM account_order_settles WHERE account_id = ${shop.id}`.execute(ctx.db)).rows[0]
      ?.n ?? '0'
  const before = await versionOf()

  await purchase.query('BEGIN')
  await purchase.query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [shop.id])
  try {
    expect(await recordFinal(recorderDb, d, { status: 'completed', refund: 'none', message: 'ok', sn: 'SN1' }, ['pending'])).toBe(true)
  } finally {
    await purchase.query('ROLLBACK')
  }
  const order = await sql<{ status: string }>`SELECT status FROM orders WHERE id = ${d.order_id}`.execute(ctx.db)
  expect(order.rows[0]!.status).toBe('completed')
  expect(Number(await versionOf())).toBe(Number(before) + 1)
}
