import pg from 'pg'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { PreparedStatement } from '../src/db/database.js'
import { callPurchase } from '../src/modules/checkout/index.js'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createAutoItem, createReseller } from './factory.js'

/** One database session for the statements given: PGlite's only one, or a PostgreSQL connection of its own. */
async function oneSession(ctx: { prepared: PreparedStatement }, databaseUrl: string | undefined) {
  if (!onPostgres || !databaseUrl) return { run: ctx.prepared, end: async () => {} }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const run: PreparedStatement = async <R>(_name: string, text: string, values: unknown[]) => (await client.query(text, values)).rows as R[]
  return { run, end: () => client.end() }
}

describe('the license claim starts past its connection’s last claim of the item', () => {
  it('takes the licenses above the floor first, then those left below it, and refuses only when none is left', async () => {
    const { app, ctx, databaseUrl } = await createTestApp()
    const item = await createAutoItem(app, 3, { price: 1_000 })
    const buyer = await createReseller(app, { balance: 100_000 })
    const ids = (await sql<{ id: number }>`SELECT id FROM licenses WHERE item_id = ${item.id} ORDER BY id`.execute(ctx.db)).rows.map(
      (r) => r.id,
    )
    const session = await oneSession(ctx, databaseUrl)
    const soldTo = async (orderId: number) =>
      (
        await sql<{
          id: number
        }>`SELECT l.id FROM licenses l JOIN order_lines ol ON ol.id = l.order_line_id WHERE ol.order_id = ${orderId}`.execute(ctx.db)
      ).rows.map((r) => r.id)
    const buy = (n: number, quantity = 1) =>
      callPurchase(session.run, {
        accountId: buyer.id,
        refId: `floor-${n}`,
        invoice: `INVFLOOR${n}`,
        carts: [{ item_id: item.id, quantity }],
        lockToken: null,
        processes: ['auto'],
      })
    try {
      // As if this connection had last claimed the second license, the first held by another purchase then.
      await session.run('floor_set', 'SELECT set_config($1, $2, false)', [`reseller.license_floor_${item.id}`, String(ids[1])])
      expect(await soldTo((await buy(1)).order_id)).toEqual([ids[2]])
      // A refusal (more than is left) sells nothing and leaves the floor where it was.
      await expect(buy(2, 3)).rejects.toMatchObject({ code: 'OUT_OF_STOCK' })
      const [floor] = await session.run<{ floor: string }>('floor_get', 'SELECT current_setting($1) AS floor', [
        `reseller.license_floor_${item.id}`,
      ])
      expect(floor.floor).toBe(String(ids[2]))
      // None above the floor now: the ones below it, oldest first.
      expect(await soldTo((await buy(3)).order_id)).toEqual([ids[0]])
      expect(await soldTo((await buy(4)).order_id)).toEqual([ids[1]])
      await expect(buy(5)).rejects.toMatchObject({ code: 'OUT_OF_STOCK' })
      const { rows } = await sql<{ status: string; n: number }>`
        SELECT status, count(*)::int AS n FROM licenses WHERE item_id = ${item.id} GROUP BY status`.execute(ctx.db)
      expect(rows).toEqual([{ status: 'sold', n: 3 }])
    } finally {
      await session.end()
    }
  })

  it('keeps a floor per item: a cart of two items sets each to its own license', async () => {
    const { app, ctx, databaseUrl } = await createTestApp()
    const [first, second] = [await createAutoItem(app, 2, { price: 1_000 }), await createAutoItem(app, 2, { price: 1_000 })]
    const buyer = await createReseller(app, { balance: 100_000 })
    const session = await oneSession(ctx, databaseUrl)
    try {
      await callPurchase(session.run, {
        accountId: buyer.id,
        refId: 'floors-1',
        invoice: 'INVFLOORS1',
        // The later item first, so a floor carried over between lines would show.
        carts: [
          { item_id: second.id, quantity: 1 },
          { item_id: first.id, quantity: 1 },
        ],
        lockToken: null,
        processes: ['auto'],
      })
      for (const item of [first, second]) {
        const [sold] = (await sql<{ id: number }>`SELECT id FROM licenses WHERE item_id = ${item.id} AND status = 'sold'`.execute(ctx.db))
          .rows
        const [floor] = await session.run<{ floor: string }>('floor_get', 'SELECT current_setting($1) AS floor', [
          `reseller.license_floor_${item.id}`,
        ])
        expect(floor.floor).toBe(String(sold.id))
      }
    } finally {
      await session.end()
    }
  })
})
