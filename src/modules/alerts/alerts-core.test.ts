import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { inTransaction } from '../../db/database.js'
import { reconcileKind } from './alerts.queries.js'

const { ctx } = await createTestApp()

describe('alerts core', () => {
  it('fires once when a condition starts and once when it clears, one delivery per channel each time', async () => {
    const targets = { telegram: '-100123', email: 'ops@example.com' }
    const run = (firing: { subject: string; message: string }[]) =>
      inTransaction(ctx.db, (trx) => reconcileKind(trx, 'supplier_balance_low', firing, targets))
    expect(
      await run([
        { subject: 'dgf', message: 'dgf low' },
        { subject: 'dgf2', message: 'dgf2 low' },
      ]),
    ).toEqual({ started: 2, cleared: 0 })
    expect(
      await run([
        { subject: 'dgf', message: 'dgf low' },
        { subject: 'dgf2', message: 'dgf2 low' },
      ]),
    ).toEqual({ started: 0, cleared: 0 })
    expect(await run([{ subject: 'dgf', message: 'dgf low' }])).toEqual({ started: 0, cleared: 1 })
    expect(await run([])).toEqual({ started: 0, cleared: 1 })
    const deliveries = await ctx.db.selectFrom('alert_deliveries').select(['event', 'channel']).orderBy('id').execute()
    expect(deliveries.filter((d) => d.event === 'started')).toHaveLength(4)
    expect(deliveries.filter((d) => d.event === 'cleared')).toHaveLength(4)
  })
})
