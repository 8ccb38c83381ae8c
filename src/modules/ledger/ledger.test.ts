import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestApp } from '../../../test/app.js'
import { admin, createReseller, get } from '../../../test/factory.js'
import type { LedgerType } from '../../db/schema.js'
import { postLedgerEntry } from './ledger.service.js'

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
    const res = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/resellers/${r.id}/balance`,
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload: { amount: -1001, reason: 'too much' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('BALANCE_IS_INSUFFICIENT')
    expect((await get(app, '/balance', r)).json().data.balance).toBe(1000)
    const { rows } = await sql<{ n: number }>`select count(*) as n from ledger_entries where account_id = ${r.id}`.execute(ctx.db)
    expect(rows[0].n).toBe(1)
  })
})

const adminPost = (url: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/admin/v1${url}`, headers: { authorization: 'Bearer test-admin-token-0123456789' }, payload })

/** A credit of a kind the operator API cannot make yet (top-ups arrive later), through the one balance function. */
async function postEntry(accountId: number, direction: 'credit' | 'debit', type: LedgerType, amount: number) {
  await ctx.db
    .transaction()
    .execute((trx) => postLedgerEntry(trx, { accountId, direction, type, amount, description: `${type} ${amount}` }))
}

describe('mutations list', async () => {
  const r = await createReseller(app, { balance: 10_000 })
  await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -1_000, reason: 'fee 1' })
  await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -1_000, reason: 'fee 2' })
  await postEntry(r.id, 'credit', 'topup', 5_000)
  await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: 300, reason: 'bonus' })
  // Someone else's ledger must never show up.
  await createReseller(app, { balance: 777 })
  const list = async (query: string) => (await get(app, `/balance/mutations${query}`, r)).json()

  it('answers every field, newest first, with default paging', async () => {
    const body = await list('')
    expect(body.meta).toEqual({ page: 1, per_page: 20, total: 5, last_page: 1, total_capped: false, next_cursor: null })
    expect(body.data.map((m: any) => [m.direction, m.type, m.amount, m.balance_before, m.balance_after])).toEqual([
      ['credit', 'adjustment', 300, 13_000, 13_300],
      ['credit', 'topup', 5_000, 8_000, 13_000],
      ['debit', 'adjustment', 1_000, 9_000, 8_000],
      ['debit', 'adjustment', 1_000, 10_000, 9_000],
      ['credit', 'adjustment', 10_000, 0, 10_000],
    ])
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      invoice: null,
      direction: 'credit',
      type: 'adjustment',
      amount: 300,
      balance_before: 13_000,
      balance_after: 13_300,
      description: 'bonus',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    })
  })

  it('filters by direction and type, with the filtered total', async () => {
    const debits = await list('?direction=debit')
    expect(debits.data.map((m: any) => m.description)).toEqual(['fee 2', 'fee 1'])
    expect(debits.meta.total).toBe(2)
    expect((await list('?type=topup')).data.map((m: any) => [m.type, m.amount])).toEqual([['topup', 5_000]])
    const credits = await list('?direction=credit&type=adjustment')
    expect(credits.data.map((m: any) => m.amount)).toEqual([300, 10_000])
    expect(credits.meta).toMatchObject({ page: 1, per_page: 20, total: 2, last_page: 1, next_cursor: null })
    expect((await list('?type=refund')).data).toEqual([])
  })

  it('pages without gaps or overlaps', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`?per_page=2&page=${page}`)))
    expect(pages.map((p) => p.meta)).toEqual(
      [1, 2, 3, 4].map((page) => expect.objectContaining({ page, per_page: 2, total: 5, last_page: 3, total_capped: false })),
    )
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1, 0])
    expect(pages.flatMap((p) => p.data.map((m: any) => m.id))).toEqual((await list('')).data.map((m: any) => m.id))
  })

  it('walks the same rows by cursor (keyset), each page numbered, the last one without a next cursor', async () => {
    const walked: any[] = []
    let page = await list('?per_page=2&direction=credit')
    for (;;) {
      walked.push(page)
      if (!page.meta.next_cursor) break
      page = await list(`?per_page=2&direction=credit&cursor=${page.meta.next_cursor}`)
    }
    expect(walked.map((p) => [p.meta.page, p.data.map((m: any) => m.amount)])).toEqual([
      [1, [300, 5_000]],
      [2, [10_000]],
    ])
    const bad = await get(app, '/balance/mutations?cursor=bm9wZQ', r)
    expect(bad.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { cursor: [expect.any(String)] } })
  })

  it('takes a per_page over the maximum as the maximum (docs/design.md §3)', async () => {
    const res = await get(app, '/balance/mutations?per_page=101', r)
    expect([res.statusCode, res.json().meta.per_page]).toEqual([200, 100])
  })

  it.each([
    ['?per_page=0', 'per_page'],
    ['?page=0', 'page'],
    ['?type=bonus', 'type'],
    ['?direction=sideways', 'direction'],
  ])('%s answers 422 VALIDATION_ERROR naming %s', async (query, field) => {
    const res = await get(app, `/balance/mutations${query}`, r)
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { [field]: [expect.any(String)] } })
  })
})

describe('operator credit idempotency', () => {
  it('applies a repeated reference once and answers the same entry', async () => {
    const r = await createReseller(app)
    const first = await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: 50_000, reason: 'bank transfer', reference: 'BT-1' })
    expect(first.applied).toBe(true)
    expect(first.entry).toMatchObject({ direction: 'credit', type: 'adjustment', amount: 50_000, balance_after: 50_000, reference: 'BT-1' })
    // The same transfer again, whatever its reason says: answered, not applied.
    const again = await admin(app, 'POST', `/resellers/${r.id}/balance`, {
      amount: 50_000,
      reason: 'bank transfer (retry)',
      reference: 'BT-1',
    })
    expect(again).toEqual({ applied: false, entry: first.entry })
    // Another amount or direction under the same reference is a conflict, not silence.
    for (const amount of [60_000, -50_000]) {
      const conflict = await adminPost(`/resellers/${r.id}/balance`, { amount, reason: 'bank transfer', reference: 'BT-1' })
      expect([conflict.statusCode, conflict.json()]).toEqual([
        409,
        {
          message: 'DUPLICATE',
          errors: { reference: ['was already used for a credit of 50000 (adjustment); a repeat must have the same amount and direction'] },
        },
      ])
    }
    expect((await get(app, '/balance', r)).json().data.balance).toBe(50_000)
    // References are per account.
    const other = await createReseller(app)
    expect((await admin(app, 'POST', `/resellers/${other.id}/balance`, { amount: 1, reason: 'x', reference: 'BT-1' })).applied).toBe(true)
  })

  it('applies one reference once under 10 concurrent requests', async () => {
    const r = await createReseller(app)
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => adminPost(`/resellers/${r.id}/balance`, { amount: 12_345, reason: 'race', reference: 'RACE-1' })),
    )
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200))
    const data = answers.map((a) => a.json().data)
    expect(data.filter((d) => d.applied)).toHaveLength(1)
    expect(new Set(data.map((d) => d.entry.id)).size).toBe(1)
    expect((await get(app, '/balance', r)).json().data.balance).toBe(12_345)
    const { rows } = await sql<{ n: number }>`select count(*) as n from ledger_entries where account_id = ${r.id}`.execute(ctx.db)
    expect(rows[0].n).toBe(1)
  })

  it('never lets concurrent debits take the balance below zero', async () => {
    const r = await createReseller(app, { balance: 500 })
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => adminPost(`/resellers/${r.id}/balance`, { amount: -100, reason: `debit ${i}` })),
    )
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5)
    expect(answers.filter((a) => a.statusCode === 400).map((a) => a.json())).toEqual(Array(5).fill({ message: 'BALANCE_IS_INSUFFICIENT' }))
    expect((await get(app, '/balance', r)).json().data.balance).toBe(0)
  })

  it('refuses a zero amount and an unknown account', async () => {
    const zero = await adminPost(`/resellers/1/balance`, { amount: 0, reason: 'nothing' })
    expect(zero.statusCode).toBe(422)
    expect(zero.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { amount: ['must not be zero'] } })
    const unknown = await adminPost(`/resellers/999999/balance`, { amount: 10, reason: 'ghost' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  })
})

describe('balances stay within 10^15', () => {
  it('refuses a credit that would take the balance over 10^15 with 422 on amount, and takes one up to it', async () => {
    const r = await createReseller(app, { balance: 999_999_999_999_000 })
    const over = await adminPost(`/resellers/${r.id}/balance`, { amount: 1_001, reason: 'too much', reference: 'OVER-1' })
    expect([over.statusCode, over.json()]).toEqual([
      422,
      { message: 'VALIDATION_ERROR', errors: { amount: ['would take the balance over 1000000000000000'] } },
    ])
    const exact = await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: 1_000, reason: 'up to the bound' })
    expect(exact.entry.balance_after).toBe(1_000_000_000_000_000)
    expect((await get(app, '/balance', r)).json().data.balance).toBe(1_000_000_000_000_000)
    // The refused reference was left free, and a debit still works at the bound.
    expect((await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: -1, reason: 'x', reference: 'OVER-1' })).applied).toBe(true)
  })

  it('the database itself refuses a balance over 10^15', async () => {
    const r = await createReseller(app)
    await expect(sql`UPDATE accounts SET balance = 1000000000000001 WHERE id = ${r.id}`.execute(ctx.db)).rejects.toThrow(/money_amount_max/)
  })
})

describe('money above 2^31', () => {
  it('stays a JSON number in every answer', async () => {
    const big = 2 ** 31 + 12_345
    const r = await createReseller(app)
    const credit = await adminPost(`/resellers/${r.id}/balance`, { amount: big, reason: 'big' })
    expect(credit.body).toContain(`"amount":${big}`)
    expect(credit.body).toContain(`"balance_after":${big}`)
    expect((await get(app, '/balance', r)).body).toBe(`{"message":"OK","data":{"balance":${big}}}`)
    expect((await get(app, '/balance/mutations', r)).body).toContain(`"amount":${big},"balance_before":0,"balance_after":${big}`)
    expect((await admin(app, 'GET', `/resellers/${r.id}`)).balance).toBe(big)
  })
})

describe('ledger invariant', () => {
  // Runs last: everything above must have left every balance equal to its ledger.
  it('balance == sum(credits) - sum(debits) and each entry continues the previous one', async () => {
    const { rows } = await sql<{ id: number; balance: number; ledger: number; entries: number }>`
      select a.id, a.balance,
             coalesce(sum(case when e.direction = 'credit' then e.amount else -e.amount end), 0) as ledger,
             count(e.id) as entries
        from accounts a left join ledger_entries e on e.account_id = a.id
       group by a.id order by a.id`.execute(ctx.db)
    expect(rows.length).toBeGreaterThanOrEqual(8)
    for (const row of rows) {
      expect(row.balance, `account ${row.id}`).toBe(row.ledger)
      expect(row.balance).toBeGreaterThanOrEqual(0)
    }
    const { rows: breaks } = await sql<{ id: number }>`
      select id from (
        select id, balance_before, lag(balance_after) over (partition by account_id order by id) as previous from ledger_entries
      ) chain where balance_before <> coalesce(previous, 0)`.execute(ctx.db)
    expect(breaks).toEqual([])
  })
})
