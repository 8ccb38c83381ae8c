import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../src/db/database.js'
import { claimDue, earliestDue, recordAttempts, relayOutbox } from '../src/modules/webhooks/index.js'
import { idleCapacity } from './webhook-capacity.js'
import { findOrdersWithContents } from '../src/modules/orders/index.js'
import { createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { createReseller } from './factory.js'
import { nodes, type PlanNode } from './plans.js'
import { WEBHOOK_POOL_SETTINGS } from '../src/service.js'

// The worker's statements are prepared once per connection and run on one generic plan, made
// while the tables were small: on its keyed pool that plan must still find rows by key once they
// have grown.
describe.skipIf(!onPostgres)("the webhook worker's generic plans on a small database (PostgreSQL)", async () => {
  const { app, ctx, databaseUrl } = await createTestApp()
  const keyed = await openPostgres(databaseUrl!, 1, { settings: WEBHOOK_POOL_SETTINGS })
  afterAll(() => keyed.close())
  // auto_explain on the keyed pool's one connection shows the plan a prepared statement ran with.
  const notices: string[] = []
  keyed.pool!.on('connect', (client) => client.on('notice', (n) => notices.push(n.message ?? '')))

  /** From here on the keyed connection reports every statement's analysed plan as a notice. */
  const explainStatements = async () => {
    await sql`LOAD 'auto_explain'`.execute(keyed.db)
    for (const setting of ['log_min_duration = 0', 'log_analyze = on', 'log_format = json', 'log_level = notice'])
      await sql.raw(`SET auto_explain.${setting}`).execute(keyed.db)
  }
  /** The plan the statement containing `marker` ran with, and its notice's text. */
  const explained = (marker: string) => {
    const text = notices.find((n) => n.includes(marker))
    expect(text, notices.join('\n')).toBeDefined()
    return { text: text!, plan: (JSON.parse(text!.slice(text!.indexOf('{'))) as { Plan: PlanNode }).Plan }
  }

  it('commits without waiting for the WAL flush on this pool only', async () => {
    const setting = async (db: typeof ctx.db) =>
      (await sql<{ s: string }>`SELECT current_setting('synchronous_commit') AS s`.execute(db)).rows[0].s
    expect(await setting(keyed.db)).toBe('off')
    expect(await setting(ctx.db)).toBe('on')
  })

  it('keeps every statement on indexes: no seq scan, hash or merge join', async () => {
    const now = new Date()
    const room = idleCapacity(now, 10)
    await relayOutbox(keyed.db, 10, room)
    await claimDue(keyed.db, room)
    const attempt = { claim: 1, attemptedAt: now, statusCode: 200, durationMs: 1, error: null, failures: 0, nextAttemptAt: null }
    await recordAttempts(keyed.db, [{ ...attempt, deliveryId: 0, status: 'delivered' }])
    await earliestDue(keyed.db)
    await findOrdersWithContents(keyed.db, [0])

    const statements = await keyed.pool!.query<{ name: string; parameter_types: string[]; custom_plans: string }>(
      `SELECT name, parameter_types::text[], custom_plans FROM pg_prepared_statements`,
    )
    expect(statements.rows.length).toBe(5)
    // Left to choose, PostgreSQL planned some of them anew at every call: the pool keeps the generic plan.
    expect(statements.rows.filter((s) => Number(s.custom_plans) > 0)).toEqual([])
    for (const { name, parameter_types } of statements.rows) {
      const nulls = parameter_types.length === 0 ? '' : `(${parameter_types.map(() => 'NULL').join(', ')})`
      const { rows } = await keyed.pool!.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE ${name}${nulls}`)
      const all = nodes(rows[0]['QUERY PLAN'][0].Plan)
      const shown = JSON.stringify(rows[0]['QUERY PLAN'][0].Plan, null, 1)
      expect(
        all.filter((n) => /Seq Scan|Hash Join|Merge Join/.test(n['Node Type'])),
        shown,
      ).toEqual([])
      // An account's due deliveries come in the claim's order from the index: the first few are read, not all of them sorted.
      const sortedDue = all.filter(
        (n) => n['Node Type'] === 'Sort' && n.Plans?.some((c) => c['Index Name'] === 'webhook_deliveries_due_idx'),
      )
      expect(sortedDue, shown).toEqual([])
    }
  })

  it('relays a backlog batch by batch on the generic plan, whatever the outbox statistics say', async () => {
    // The worker's vacuum of an emptied outbox keeps its pages and records no rows: a plan made then believes any backlog tiny.
    const reseller = await createReseller(app)
    const fill = sql`INSERT INTO outbox_events (account_id, events, order_id)
                     SELECT ${reseller.id}, ARRAY['order.paid'], NULL FROM generate_series(1, 3000)`
    await fill.execute(ctx.db)
    await sql`DELETE FROM outbox_events`.execute(ctx.db)
    await sql`VACUUM (TRUNCATE false) outbox_events`.execute(ctx.db)
    const now = new Date()
    const room = idleCapacity(now, 256)
    await relayOutbox(keyed.db, 500, room)
    await fill.execute(ctx.db)
    await explainStatements()
    notices.length = 0
    const { relayed } = await relayOutbox(keyed.db, 500, room)
    expect(relayed).toBe(500)
    const relay = explained('WITH batch')
    const outboxReads = nodes(relay.plan).filter((n) => n['Relation Name'] === 'outbox_events' && n['Node Type'].includes('Scan'))
    expect(outboxReads.length).toBeGreaterThan(0)
    // Each scan reads the batch, not the backlog.
    expect(Math.max(...outboxReads.map((n) => n['Actual Rows'])), relay.text).toBeLessThanOrEqual(500)
    await sql`DELETE FROM outbox_events`.execute(ctx.db)
  })

  it('walks no account whose deliveries wait in the slow tail, and claims those when they fall due', async () => {
    // 300 receivers dead for a while: one delivery each, five failures in, an hour from its next attempt.
    await sql`WITH dead AS (INSERT INTO accounts (name) SELECT 'dead ' || g FROM generate_series(1, 300) g RETURNING id)
              INSERT INTO webhook_deliveries (account_id, event, webhook_id, status, failures, next_attempt_at)
              SELECT id, 'order.paid', 'evt_dead_' || id, 'retrying', 5, now() + interval '1 hour' FROM dead`.execute(ctx.db)
    const live = await createReseller(app)
    const now = new Date()
    await sql`INSERT INTO webhook_deliveries (account_id, event, webhook_id, next_attempt_at)
              VALUES (${live.id}, 'order.paid', 'evt_live', ${now})`.execute(ctx.db)
    await explainStatements()
    const deliveriesRead = (marker: string) =>
      nodes(explained(marker).plan)
        .filter((n) => n['Relation Name'] === 'webhook_deliveries')
        .reduce((sum, n) => sum + n['Actual Rows'] * (n['Actual Loops'] ?? 1), 0)
    const room = idleCapacity(now, 10, new Date(now.getTime() + 60_000))

    notices.length = 0
    const { claimed } = await claimDue(keyed.db, room)
    expect(claimed.map((d) => d.webhook_id)).toEqual(['evt_live'])
    // A walk of the dead accounts would read at least one row of each.
    expect(deliveriesRead('fast_accounts AS')).toBeLessThan(20)
    notices.length = 0
    expect(await earliestDue(keyed.db)).toEqual(room.leaseUntil)
    expect(deliveriesRead('fast_accounts AS')).toBeLessThan(20)

    // One of them falls due: the claim finds it by its time and takes it.
    await sql`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second'
               WHERE id = (SELECT min(id) FROM webhook_deliveries WHERE webhook_id LIKE 'evt_dead_%')`.execute(ctx.db)
    expect(await earliestDue(keyed.db)).not.toEqual(room.leaseUntil)
    const later = { ...room, now: new Date() }
    const again = await claimDue(keyed.db, later)
    expect(again.claimed).toHaveLength(1)
    expect(again.claimed[0].webhook_id).toMatch(/^evt_dead_/)
    expect(await earliestDue(keyed.db)).toEqual(room.leaseUntil)
    await sql`DELETE FROM webhook_deliveries`.execute(ctx.db)
  })
})
