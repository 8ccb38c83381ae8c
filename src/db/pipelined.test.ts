import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from '../../test/database.js'
import { eventually } from '../../test/eventually.js'
import { isDatabaseUnavailable } from './database.js'
import { pipelinedStatements } from './pipelined.js'

// Pipelining is PostgreSQL's wire protocol; the embedded database runs one statement at a time anyway.
describe.runIf(onPostgres)('pipelined single statements', async () => {
  const database = await cloneTestDatabase()
  const lanes = pipelinedStatements({ connectionString: database.url }, 2)
  afterAll(async () => {
    await lanes.close()
    await database.close()
  })
  await sql`CREATE TABLE pipelined_probe (n integer PRIMARY KEY)`.execute(database.db)
  const insert = (n: number) =>
    lanes.run<{ n: number; pid: number }>(
      'probe_insert',
      'INSERT INTO pipelined_probe (n) VALUES ($1) RETURNING n, pg_backend_pid() AS pid',
      [n],
    )
  const stored = async () => (await sql<{ n: number }>`SELECT n FROM pipelined_probe ORDER BY n`.execute(database.db)).rows.map((r) => r.n)

  it('sends the calls of one turn on its few connections, each its own transaction: a failing call rolls back only itself', async () => {
    // 3 is inserted twice: the second of them fails on the primary key, the calls around it commit.
    const calls = [1, 2, 3, 4, 3, 5, 6].map((n) => insert(n).then(([row]) => row))
    const settled = await Promise.allSettled(calls)
    const failed = settled.filter((s) => s.status === 'rejected')
    expect(failed).toHaveLength(1)
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' })
    const rows = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    expect(rows.map((r) => r.n).sort()).toEqual([1, 2, 3, 4, 5, 6])
    expect(new Set(rows.map((r) => r.pid)).size).toBe(2)
    expect(await stored()).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('sends a call past a lane held by a slow statement', async () => {
    const slow = lanes.run<{ pid: number }>('probe_sleep', 'SELECT pg_backend_pid() AS pid FROM pg_sleep(1)', [])
    const finished: string[] = []
    void slow.then(() => finished.push('slow'))
    const [quick] = await insert(7)
    finished.push('quick')
    const [sleeper] = await slow
    expect(finished).toEqual(['quick', 'slow'])
    expect(quick.pid).not.toBe(sleeper.pid)
  })

  it('fails the calls of a lost connection as unavailable, then reconnects', async () => {
    const pidOf = () => lanes.run<{ pid: number }>('probe_pid', 'SELECT pg_backend_pid() AS pid', []).then(([row]) => row.pid)
    const pids = await Promise.all([pidOf(), pidOf()])
    expect(new Set(pids).size).toBe(2)
    // One slow insert on each lane, both backends terminated under them.
    const slowInsert = (n: number) =>
      lanes.run('probe_slow_insert', 'INSERT INTO pipelined_probe (n) SELECT $1 FROM pg_sleep(1) RETURNING n', [n])
    const pending = Promise.allSettled([slowInsert(8), slowInsert(9)])
    await sql`SELECT pg_terminate_backend(pid) FROM unnest(${pids}::int[]) pid`.execute(database.db)
    for (const s of await pending) {
      expect(s.status).toBe('rejected')
      const reason = (s as PromiseRejectedResult).reason
      expect(isDatabaseUnavailable(reason), String(reason)).toBe(true)
    }
    const [again] = await insert(10)
    expect(pids).not.toContain(again.pid)
    expect(await stored()).toEqual([1, 2, 3, 4, 5, 6, 7, 10])
  })

  it('bounds silence, not waiting: calls queued behind slow ones pass the bound, a lane silent past it is lost', async () => {
    const one = pipelinedStatements({ connectionString: database.url, query_timeout: 1000 }, 1)
    try {
      const sleep = (s: number) =>
        one.run<{ pid: number }>(`probe_sleep_${s * 10}`, `SELECT pg_backend_pid() AS pid FROM pg_sleep(${s})`, [])
      // 1.8 s in all on one connection, each answer 0.6 s after the one before it.
      const queued = await Promise.all([sleep(0.6), sleep(0.6), sleep(0.6)])
      expect(new Set(queued.map(([row]) => row.pid)).size).toBe(1)
      const silent = await sleep(2.5).catch((error: unknown) => error)
      expect(isDatabaseUnavailable(silent), String(silent)).toBe(true)
      const [after] = await sleep(0)
      expect(after.pid).not.toBe(queued[0][0].pid)
    } finally {
      await one.close()
    }
  })

  it('lets the calls in flight finish when closed, and refuses calls after', async () => {
    const closing = pipelinedStatements({ connectionString: database.url, query_timeout: 5000 }, 2)
    const inFlight = closing.run<{ n: number }>('probe_slow_one', 'SELECT 1 AS n FROM pg_sleep(1)', [])
    // In flight: PostgreSQL is running it (its second of sleep leaves time to see it).
    const running = async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND query = 'SELECT 1 AS n FROM pg_sleep(1)'`.execute(database.db)
      ).rows[0].n
    await eventually('the slow call running', running, (n) => n === 1, { intervalMs: 20 })
    await closing.close()
    expect(await inFlight).toEqual([{ n: 1 }])
    await expect(closing.run('probe_pid', 'SELECT pg_backend_pid() AS pid', [])).rejects.toThrow('closed')
  })
})
