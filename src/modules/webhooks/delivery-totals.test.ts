import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { emptyDatabase, migrateTo } from '../../../test/migration-steps.js'
import { migrateToLatest } from '../../db/migrate.js'
import type { DatabaseHandle } from '../../db/database.js'

const totals = async (handle: DatabaseHandle) =>
  (
    await sql<{ account_id: number; deliveries: number }>`
      SELECT account_id::int, deliveries::int FROM webhook_delivery_totals WHERE deliveries <> 0 ORDER BY account_id`.execute(handle.db)
  ).rows

const deliveries = (handle: DatabaseHandle, accountIds: number[], tag: string) =>
  sql`INSERT INTO webhook_deliveries (account_id, event, webhook_id, status)
      SELECT a, 'order.paid', ${tag} || '_' || n, 'delivered' FROM unnest(${accountIds}::bigint[]) WITH ORDINALITY AS d(a, n)`.execute(
    handle.db,
  )

describe('migration 0540: each account keeps its count of webhook deliveries', () => {
  it('counts the deliveries already stored, then every insert, delete and truncate', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261207_0520_line-refund-reference')
    const { rows } = await sql<{ id: number }>`INSERT INTO accounts (name) VALUES ('busy'), ('quiet'), ('none') RETURNING id`.execute(
      handle.db,
    )
    const [busy, quiet] = rows.map((r) => Number(r.id))
    await deliveries(handle, [busy, quiet, busy, busy], 'old')

    await migrateToLatest(handle.db)
    expect(await totals(handle)).toEqual([
      { account_id: busy, deliveries: 3 },
      { account_id: quiet, deliveries: 1 },
    ])

    // One statement of several accounts (as a relay's), given out of account order.
    await deliveries(handle, [quiet, busy, quiet], 'new')
    await sql`DELETE FROM webhook_deliveries WHERE webhook_id IN ('old_1', 'old_2', 'old_3', 'new_1')`.execute(handle.db)
    expect(await totals(handle)).toEqual([
      { account_id: busy, deliveries: 2 },
      { account_id: quiet, deliveries: 1 },
    ])
    await sql`TRUNCATE webhook_deliveries`.execute(handle.db)
    expect(await totals(handle)).toEqual([])
  })
})
