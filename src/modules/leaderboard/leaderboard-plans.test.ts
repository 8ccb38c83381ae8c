import { sql, type RawBuilder } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { OWN_MONTH, TOP_TEN, monthPointsQuery, ownMonthValues } from './leaderboard.queries.js'
import { profile } from './leaderboard.service.js'

describe('with 100,000 accounts in the month', () => {
  it('reads the caller’s own row by primary key, renews the month from the (month, points) index, and ranks as a full sort does', async () => {
    const own = await createTestApp()
    const db = own.ctx.db
    await sql`INSERT INTO accounts (name) SELECT 'load ' || g FROM generate_series(1, 100000) g`.execute(db)
    const current = (await sql<{ month: string }>`SELECT leaderboard_month(now())::text AS month`.execute(db)).rows[0].month
    // Two months of history, the current one (even ids) and the one before (odd ids): the month narrows the index range.
    await sql`INSERT INTO leaderboard_months (account_id, month, transactions, amount)
              SELECT id, (${current}::date - interval '1 month' * (id % 2))::date, 1, (id * 7919) % 2000000 FROM accounts`.execute(db)
    await sql`VACUUM ANALYZE leaderboard_months`.execute(db)
    const { rows } = await sql<{ id: number; month: string; rank: number }>`
      SELECT id, to_char(month, 'YYYY-MM') AS month, rank FROM (
        SELECT account_id AS id, month, rank() OVER (ORDER BY points DESC) AS rank, row_number() OVER (ORDER BY points DESC) AS n
          FROM leaderboard_months WHERE month = leaderboard_month(now())) ranked
       WHERE n IN (1, 25000, 50000) ORDER BY n`.execute(db)
    const [first, mid, last] = rows
    const inMonth = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM leaderboard_months WHERE month = ${current}::date`.execute(db))
      .rows[0].n
    const explain = async (query: RawBuilder<unknown>, analyze = true, on: typeof db = db) => {
      const options = analyze ? sql`(ANALYZE, BUFFERS)` : sql``
      const explained = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${options} ${query}`.execute(on)
      return explained.rows.map((r) => r['QUERY PLAN']).join('\n')
    }
    // Shared buffers the whole execution touched: the top node's line (planning's come after, under Planning:).
    const buffers = (plan: string) => {
      const line =
        plan
          .split('\nPlanning')[0]
          .split('\n')
          .find((l) => l.includes('Buffers:')) ?? ''
      return [...line.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0)
    }

    // The statements as they run, prepared, with the generic plans PostgreSQL settles on for them.
    // The caller's own row: the primary key, a handful of pages whether it ranks first, in the middle or last
    // (counting the accounts above the last one, as ranks once were, read some 300).
    await db.connection().execute(async (conn) => {
      await sql`SET plan_cache_mode = force_generic_plan`.execute(conn)
      await sql`PREPARE own_month(int8, date) AS ${sql.raw(OWN_MONTH)}`.execute(conn)
      for (const caller of [first, mid, last]) {
        for (const month of [undefined, caller.month]) {
          const [accountId, day] = ownMonthValues(caller.id, month)
          const plan = await explain(sql`EXECUTE own_month(${sql.lit(accountId)}, ${sql.lit(day)}::date)`, true, conn)
          expect(plan).toMatch(/Index Scan using leaderboard_months_pkey/)
          expect(plan).not.toMatch(/Seq Scan|Sort|leaderboard_months_rank_idx/)
          expect(buffers(plan), plan).toBeLessThan(16)
        }
      }
      // The top ten: the head of the same index under the limit (only those ten rows are ordered again for rank()).
      await sql`PREPARE top_ten(date) AS ${sql.raw(TOP_TEN)}`.execute(conn)
      for (const month of [null, current]) {
        const top = await explain(sql`EXECUTE top_ten(${sql.lit(month)}::date)`, false, conn)
        expect(top).toMatch(/Limit .*\n\s*->  Index (Only )?Scan using leaderboard_months_rank_idx/)
        expect(top).not.toMatch(/Seq Scan/)
      }
      await sql`DEALLOCATE ALL`.execute(conn)
      await sql`RESET plan_cache_mode`.execute(conn)
    })

    // The renewal (at most once a second per process): the month's range of the rank index, already in order.
    const renewal = await explain(monthPointsQuery(current.slice(0, 7)))
    expect(renewal).toMatch(/Index (Only )?Scan using leaderboard_months_rank_idx/)
    expect(renewal).not.toMatch(/Seq Scan|Sort/)
    expect(Number(/Index (?:Only )?Scan using leaderboard_months_rank_idx .*actual time=\S+ rows=(\d+)/.exec(renewal)?.[1])).toBe(inMonth)

    // The snapshot's answers are a full sort's ranks; an account without a row this month comes after all of them.
    for (const caller of [first, mid, last])
      expect(await profile(own.ctx.prepared, own.ctx.leaderboard, caller.id, undefined)).toMatchObject({
        month: caller.month,
        rank: caller.rank,
      })
    expect(await profile(own.ctx.prepared, own.ctx.leaderboard, mid.id + 1, undefined)).toEqual({
      month: mid.month,
      rank: 1 + inMonth,
      total_transactions: 0,
      points: 0,
    })
  }, 180_000)
})
