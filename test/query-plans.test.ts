import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { growthSeedSql } from '../bench/growth-seed.js'
import { YEARS } from '../bench/growth-seed-records.js'
import { PREPARED } from '../src/db/database.js'
import type { DB } from '../src/db/schema.js'
import { COUNT_CAP } from '../src/db/keyset-paging.js'
import { pageWindow } from '../src/http/paging.js'
import { listMutations } from '../src/modules/ledger/index.js'
import { relayOutbox } from '../src/modules/webhooks/index.js'
import { idleCapacity } from './webhook-capacity.js'
import { detailByRefReader, listPurchases } from '../src/modules/orders/index.js'
import { marginReport, marginWatch } from '../src/modules/reports/index.js'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createAutoItem, createReseller, get } from './factory.js'
import { buy } from './factory-orders.js'
import { nodes, type PlanNode } from './plans.js'

const BIG = ['orders', 'order_lines', 'licenses', 'ledger_entries']

// Seeding 300k+ rows with generate_series takes seconds on PostgreSQL and minutes on PGlite (single-threaded WASM): PostgreSQL only.
describe.skipIf(!onPostgres)('query plans of the growing lists on a grown database (PostgreSQL)', async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  // EXPLAIN runs on a pool of its own, beside the app's.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  afterAll(() => pool.end())
  const item = await createAutoItem(app, 3, { price: 1_000 })
  const reader = await createReseller(app, { balance: 1_000_000 })
  const whale = await createReseller(app)
  for (let i = 0; i < 3; i++) await buy(app, reader, `own-${i}`, [{ item_id: item.id, quantity: 1 }])
  // 3,000 accounts, 300k orders and lines, 150k licenses, 600k ledger entries; the whale holds a tenth (30k orders, 60k entries).
  for (const [label, statement] of growthSeedSql({ scale: 0.03, filler: item.id, whale: whale.id })) {
    if (!label.startsWith('session')) await sql.raw(statement).execute(ctx.db)
  }
  const captured: CompiledQuery[] = []
  const spy = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: pool }),
    log: (event) => void (event.level === 'query' && captured.push(event.query)),
  })

  /** Each statement `run` sends, explained with its own parameters and run (ANALYZE: real row counts). */
  // `generic: false`: a statement prepared only on a pool of other settings (the webhook worker's: test/webhook-plans.test.ts).
  async function plansOf(run: (db: Kysely<DB>) => Promise<unknown>, { generic = true } = {}) {
    captured.length = 0
    await run(spy)
    const plans = []
    for (const query of [...captured]) {
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, [...query.parameters])
      plans.push({ sql: query.sql, nodes: nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode) })
      if (generic && query.sql.startsWith(PREPARED)) plans.push({ sql: `(prepared) ${query.sql}`, nodes: await preparedPlan(query) })
    }
    return plans
  }

  /** The plan a named prepared statement settles on: after five runs PostgreSQL may switch to a generic plan. */
  async function preparedPlan(query: CompiledQuery): Promise<PlanNode[]> {
    const client = await pool.connect()
    try {
      await client.query(`PREPARE plan_check AS ${query.sql}`)
      // An array parameter as PostgreSQL's array literal, its elements quoted.
      const literal = (v: unknown) => (Array.isArray(v) ? `{${v.map((x) => JSON.stringify(String(x))).join(',')}}` : String(v))
      const args = query.parameters.map((v) => client.escapeLiteral(literal(v))).join(', ')
      for (let i = 0; i < 6; i++) await client.query(`EXECUTE plan_check(${args})`)
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE plan_check(${args})`)
      return nodes(rows[0]['QUERY PLAN'][0].Plan as PlanNode)
    } finally {
      await client.query('DEALLOCATE ALL')
      client.release()
    }
  }

  /** The most rows any scan of a table or index returned. */
  const rowsRead = (planNodes: PlanNode[]) =>
    Math.max(0, ...planNodes.filter((n) => n['Relation Name'] || n['Index Name']).map((n) => n['Actual Rows']))
  const maxRowsRead = (plans: Awaited<ReturnType<typeof plansOf>>) => rowsRead(plans.flatMap((p) => p.nodes))

  function expectIndexedAndBounded(plans: Awaited<ReturnType<typeof plansOf>>) {
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) {
      const seqScans = plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan' && BIG.includes(n['Relation Name']!))
      expect(seqScans, plan.sql).toEqual([])
      // No scan reads more than the count cap and a page: nothing walks all of the whale's rows.
      expect(rowsRead(plan.nodes), plan.sql).toBeLessThanOrEqual(COUNT_CAP + 51)
    }
  }

  it('seeded enough rows for the planner to choose honestly', async () => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE account_id = ${whale.id}`.execute(ctx.db)
    expect(rows[0]!.n).toBe(30_000)
  })

  it.each([
    ['page 1', { page: 1 }],
    ['the last capped page', { page: COUNT_CAP / 20 }],
    ['a status filter', { page: 1, status: 'paid' as const }],
  ])('lists the whale’s orders (%s) by index, reading at most the cap', async (_, q) => {
    const w = pageWindow({ page: q.page, per_page: 20 })
    const plans = await plansOf((db) => listPurchases(db, whale.id, 'status' in q ? q.status : undefined, w))
    expectIndexedAndBounded(plans)
    // The plan checked includes the one the named prepared statement settles on.
    expect(plans.some((p) => p.sql.startsWith('(prepared)'))).toBe(true)
    // A status filter may take the open orders' index or walk (account_id, id): either is bounded above,
    // and which one PostgreSQL picks follows the seed's statistics (it took each in CI).
    // Unfiltered, the total is the account row's counter: page 1 reads its own rows and nothing else.
    if (q.page === 1 && !('status' in q)) expect(maxRowsRead(plans)).toBeLessThanOrEqual(21)
    // Deep in the list the OFFSET is walked in the index alone: rows are read for the page only.
    if (q.page > 1) {
      for (const plan of plans) {
        const rowReads = plan.nodes.filter(
          (n) => n['Relation Name'] === 'orders' && ['Index Scan', 'Seq Scan', 'Bitmap Heap Scan'].includes(n['Node Type']),
        )
        expect(Math.max(0, ...rowReads.map((n) => n['Actual Rows'])), plan.sql).toBeLessThanOrEqual(21)
      }
    }
  })

  it('walks on past the cap by cursor: no OFFSET, the id bound in the index condition', async () => {
    const { rows } = await sql<{ id: number }>`SELECT id FROM orders WHERE account_id = ${whale.id} ORDER BY id LIMIT 1 OFFSET 20`.execute(
      ctx.db,
    )
    const cursor = Buffer.from(`${rows[0]!.id}.600`).toString('base64url')
    const plans = await plansOf((db) => listPurchases(db, whale.id, undefined, pageWindow({ page: 1, per_page: 20, cursor })))
    expectIndexedAndBounded(plans)
    expect(plans.map((p) => p.sql).filter((s) => / offset /i.test(s))).toEqual([])
    const deep = await get(app, `/balance/mutations?per_page=20&page=${COUNT_CAP / 20 + 1}`, whale)
    expect(deep.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { page: [expect.any(String)] } })
    const last = (await get(app, `/trx?per_page=20&cursor=${cursor}`, whale)).json()
    expect([last.data.length, last.meta.page, last.meta.next_cursor, last.meta.total_capped]).toEqual([20, 600, null, true])
  })

  it('lists the whale’s ledger (all, and filtered) by index, reading at most the cap', async () => {
    for (const filter of [{}, { type: 'purchase' as const }, { type: 'adjustment' as const }, { direction: 'credit' as const }]) {
      const plans = await plansOf((db) => listMutations(db, whale.id, filter, pageWindow({ page: 1, per_page: 20 })))
      expectIndexedAndBounded(plans)
      if (Object.keys(filter).length === 0) expect(maxRowsRead(plans)).toBeLessThanOrEqual(21)
    }
  })

  it('finds one transaction and its lines and licenses by index', async () => {
    const plans = await plansOf(async (db) => {
      // The detail's one statement, sent through the spy instead of as a named prepared statement.
      const prepared = async <R>(_name: string, text: string, values: unknown[]) =>
        (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows
      const detail = await detailByRefReader(prepared, ctx.vault)(whale.id, 'g10')
      expect(detail?.ref_id).toBe('g10')
    })
    expectIndexedAndBounded(plans)
    // As the named prepared statement runs it (a generic plan after five runs): the order is found
    // by its unique keys, never among all of the whale's orders.
    const [order] = captured
    const generic = await preparedPlan(order!)
    const ordersRead = generic.filter((n) => n['Relation Name'] === 'orders' || n['Index Name']?.startsWith('orders_'))
    expect(ordersRead.length).toBeGreaterThan(0)
    expect(Math.max(...ordersRead.map((n) => n['Actual Rows']))).toBeLessThanOrEqual(1)
  })

  it('relays an outbox backlog batch by batch, whatever the outbox statistics say', async () => {
    // The worker's vacuum of an emptied outbox keeps its pages and records no rows: the planner then
    // believes any later backlog tiny.
    const fill = sql`INSERT INTO outbox_events (account_id, events, order_id)
                     SELECT ${reader.id}, ARRAY['order.paid'], NULL FROM generate_series(1, 3000)`
    await fill.execute(ctx.db)
    await sql`DELETE FROM outbox_events`.execute(ctx.db)
    await sql`VACUUM (TRUNCATE false) outbox_events`.execute(ctx.db)
    await fill.execute(ctx.db)
    const now = new Date()
    const room = idleCapacity(now, 256)
    const plans = await plansOf((db) => relayOutbox(db, 500, room), { generic: false })
    const outboxReads = plans
      .flatMap((p) => p.nodes)
      .filter((n) => n['Relation Name'] === 'outbox_events' && n['Node Type'].includes('Scan'))
    expect(outboxReads.length).toBeGreaterThan(0)
    // Each scan reads the batch, not the backlog (a join on id looped over all 3,000 rows per batch row).
    expect(Math.max(...outboxReads.map((n) => n['Actual Rows']))).toBeLessThanOrEqual(500)
    await sql`DELETE FROM outbox_events`.execute(ctx.db)
  })

  it('reads the margin report’s orders through the created_at BRIN index, never the whole orders table', async () => {
    // The seeded orders span the last YEARS years: a day before them (no line read), and a day among them.
    // (Over a large share of the lines, a hash join over order_lines is the planner's right choice.)
    const dayOf = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(new Date(ms))
    const before = dayOf(Date.now() - (YEARS * 365 + 2) * 86_400_000)
    for (const day of [before, dayOf(Date.now() - 300_000_000)]) {
      const plans = await plansOf((db) => marginReport(db, { from: day, to: day, group: 'provider' }, 'Asia/Jakarta'), { generic: false })
      const scans = plans.flatMap((p) => p.nodes)
      expect(
        scans.some((n) => n['Index Name'] === 'orders_created_brin'),
        day,
      ).toBe(true)
      expect(
        scans.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'orders'),
        day,
      ).toEqual([])
      if (day === before) expect(scans.filter((n) => n['Relation Name'] === 'order_lines' && n['Actual Rows'] > 0)).toEqual([])
    }
  })

  it('reads Margin watch’s orders through the created_at BRIN index too, never the whole orders table', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(new Date(Date.now() - 300_000_000))
    const plans = await plansOf((db) => marginWatch(db, { from: day, to: day }, 'Asia/Jakarta'), { generic: false })
    const scans = plans.flatMap((p) => p.nodes)
    expect(scans.some((n) => n['Index Name'] === 'orders_created_brin')).toBe(true)
    expect(scans.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'orders')).toEqual([])
  })

  it('answers the list routes over HTTP with the capped total', async () => {
    const body = (await get(app, '/trx?per_page=50', whale)).json()
    expect(body.meta).toMatchObject({ total: COUNT_CAP, last_page: COUNT_CAP / 50, total_capped: true })
    const ledger = (await get(app, '/balance/mutations', whale)).json()
    expect(ledger.meta).toMatchObject({ total: COUNT_CAP, last_page: COUNT_CAP / 20, total_capped: true })
    const small = (await get(app, '/trx', reader)).json()
    expect(small.meta).toMatchObject({ total: 3, last_page: 1, total_capped: false, next_cursor: null })
  })
})
