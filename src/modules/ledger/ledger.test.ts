import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestApp } from '../../../test/app.js'
import { admin, createReseller, get } from '../../../test/factory.js'

const { app, ctx } = await createTestApp()

describe('balance and ledger', () => {
  it('credits, debits and answers money as JSON numbers', async () => {
    const r = await createReseller(app, { balance: 9_000_000_000_000 })
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -1_500, reason: 'fee' })
    const res = await get(app, '/balance', r)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'OK', data: { balance: 8_999_999_998_500 } })
    const mutations = (await get(app, '/balance/mutations', r)).json()
    expect(mutations.data.map((m: any) => [m.direction, m.amount, m.balance_before, m.balance_after])).toEqual([
      ['debit', 1_500, 9_000_000_000_000, 8_999_999_998_500],
      ['credit', 9_000_000_000_000, 0, 9_000_000_000_000],
    ])
    expect(typeof mutations.meta.total).toBe('number')
  })

  it('refuses a debit below zero and changes nothing', async () => {
    const r = await createReseller(app, { balance: 1000 })
    const res = await app.inject({ method: 'POST', url: `/api/admin/v1/resellers/${r.id}/balance`, headers: { authorization: 'Bearer test-admin-token-0123456789' }, payload: { amount: -1001, reason: 'too much' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('BALANCE_IS_INSUFFICIENT')
    expect((await get(app, '/balance', r)).json().data.balance).toBe(1000)
    const { rows } = await sql<{ n: number }>`select count(*) as n from ledger_entries where account_id = ${r.id}`.execute(ctx.db)
    expect(rows[0].n).toBe(1)
  })
})
