import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type DatabaseHandle } from '../src/db/database.js'
import { cloneTestDatabase, onPostgres } from './database.js'
import { pause, until } from './eventually.js'
import { assertInvariants } from './invariants.js'
import { startPrivateCluster, type PrivateCluster } from './private-postgres.js'
import { expectOnlyOkOrUnavailable, openShop, startLoad, untilPurchasesSucceed } from './purchase-load.js'
import { startServerProcess, type ServerProcess } from './server-process.js'

/** The service is still the same process, and nothing escaped as an unhandled error. */
function expectAlive(server: ServerProcess) {
  expect(server.child.exitCode, server.output()).toBeNull()
  expect(server.output()).not.toMatch(/Unhandled|uncaught/i)
}

/** Waits for `count` acknowledged purchases; fails at once when the service died. */
async function untilAcknowledged(load: { acknowledged(): number }, server: ServerProcess, count: number) {
  await until(
    `${count} purchases acknowledged`,
    () => {
      expect(server.child.exitCode, server.output()).toBeNull()
      return load.acknowledged() >= count
    },
    { timeoutMs: 60_000, intervalMs: 10 },
  )
}

async function readyz(base: string) {
  const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(30_000) })
  return res.status
}

// docs/design.md §12: a lost database is a 503, never a 500; purchases stay all or nothing; the service recovers by itself.
describe.skipIf(!onPostgres)('database connections killed under a purchase load (PostgreSQL)', () => {
  const servers: ServerProcess[] = []
  let database: Awaited<ReturnType<typeof cloneTestDatabase>>
  beforeAll(async () => {
    database = await cloneTestDatabase()
  })
  afterAll(async () => {
    servers.forEach((s) => s.child.kill('SIGKILL'))
    await database?.close()
  })

  it('pg_terminate_backend, five times and until a purchase is cut mid-flight: no 500, no partial order, every acknowledged purchase kept, recovery', async () => {
    const server = await startServerProcess({ DATABASE_URL: database.url! })
    servers.push(server)
    const shop = await openShop(server.base, 'kill')
    const name = new URL(database.url!).pathname.slice(1)
    const killer = new pg.Client({ connectionString: database.url })
    await killer.connect()
    const load = startLoad(server.base, shop, 'kill')
    try {
      // Five rounds at least, and on until one cut a purchase mid-flight (a kill between two purchases cuts none).
      const cutOne = () => load.outcomes.some((o) => o.status === 503)
      for (let round = 0; round < 5 || (!cutOne() && round < 40); round++) {
        // Let purchases flow between the kills, so each round cuts some mid-flight.
        await untilAcknowledged(load, server, load.acknowledged() + 20)
        const { rows } = await killer.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t',
          [name],
        )
        expect(rows[0].n).toBeGreaterThan(0)
      }
    } finally {
      await load.stop()
      await killer.end()
    }
    await untilPurchasesSucceed(server.base, shop, 'kill')
    expectAlive(server)
    expect(
      load.outcomes.some((o) => o.status === 503),
      'some requests lost their connection',
    ).toBe(true)
    await expectOnlyOkOrUnavailable(server.base, load.outcomes, load.others)
    await assertInvariants(database.db, { [shop.manual.id]: shop.manual.stock })
  })
})

describe.skipIf(!onPostgres)('a private PostgreSQL stopped and restarted under a purchase load', () => {
  let cluster: PrivateCluster | undefined
  let server: ServerProcess | undefined
  let handle: DatabaseHandle | undefined
  beforeAll(async () => {
    cluster = await startPrivateCluster()
    server = await startServerProcess({ DATABASE_URL: cluster.url })
  })
  afterAll(async () => {
    server?.child.kill('SIGKILL')
    await handle?.close().catch(() => {})
    await cluster?.destroy()
  })

  it('SIGSTOP for 15 s: purchases 503 and /readyz 503 while frozen; SIGCONT, then a restart: recovery, invariants', async () => {
    const { base } = server!
    const shop = await openShop(base, 'stop')
    const load = startLoad(base, shop, 'stop')
    await untilAcknowledged(load, server!, 20)

    // Frozen for 15 s by the clock of this test (pacing, not an assertion); /readyz is asked back to
    // back meanwhile, and what counts is which answers came while the database was still frozen.
    cluster!.freeze()
    let thawed = false
    const thawing = pause(15_000).then(() => {
      cluster!.thaw()
      thawed = true
    })
    const whileFrozen: number[] = []
    try {
      while (!thawed) {
        const status = await readyz(base)
        if (!thawed) whileFrozen.push(status)
        await pause(500)
      }
    } finally {
      await thawing
    }
    // A load balancer takes the instance out: /readyz answers 503 while the database hangs (it does
    // not hang with it), every time and more than once.
    expect(whileFrozen.length, 'answers while frozen').toBeGreaterThan(1)
    expect(whileFrozen).toEqual(whileFrozen.map(() => 503))
    const duringFreeze = load.outcomes.filter((o) => o.status === 503)
    expect(duringFreeze.length, 'purchases during the freeze answered 503').toBeGreaterThan(0)

    await untilPurchasesSucceed(base, shop, 'stop-thawed')
    expect(await readyz(base)).toBe(200)

    const beforeRestart = load.acknowledged()
    await cluster!.restart()
    await untilPurchasesSucceed(base, shop, 'stop-restarted')
    await untilAcknowledged(load, server!, beforeRestart + 20)
    const outcomes = await load.stop()

    expectAlive(server!)
    // None waited out the hang timeout of the load (10 s): every answer came within a few seconds.
    expect(outcomes.filter((o) => o.status === 'hang')).toEqual([])
    await expectOnlyOkOrUnavailable(base, outcomes, load.others)
    handle = await openPostgres(cluster!.url, 2)
    await assertInvariants(handle.db, { [shop.manual.id]: shop.manual.stock })
  })
})
