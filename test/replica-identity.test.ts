import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { openReadPools } from '../src/db/replicas.js'
import { ADMIN_TOKEN, createSiblingApp, type TestApp } from './app.js'
import { onPostgres } from './database.js'
import { until } from './eventually.js'
import { createAutoItem, createReseller, get } from './factory.js'
import { binDir, startPrivateCluster, type PrivateCluster } from './private-postgres.js'
import { freePort } from './server-process.js'

// docs/operating.md#read-replicas: a DATABASE_READ_URL that is no standby of DATABASE_URL (another
// cluster: its pg_control_system() identifier differs) would serve someone else's rows; it gets no reads.

async function migrated(url: string) {
  const handle = await openPostgres(url, 2)
  await migrateToLatest(handle.db).finally(() => handle.close())
}

/** The /metrics line of `name` for one pool, labels and value as the app writes them. */
async function metricLine(app: TestApp['app'], name: string, pool: string): Promise<string | undefined> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  return res.body.split('\n').find((l) => l.startsWith(`${name}{pool="${pool}"`))
}

const poolName = (url: string) => `127.0.0.1:${new URL(url).port}/postgres`

/** The variants' names in a catalog listing. */
function listedNames(res: { json(): any }): string[] {
  return res.json().data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants.map((v: { name: string }) => v.name)))
}

describe.skipIf(!onPostgres || !binDir())('a read URL of another cluster (PostgreSQL, private clusters)', () => {
  let primary: PrivateCluster
  let foreign: PrivateCluster
  let late: PrivateCluster | undefined

  beforeAll(async () => {
    ;[primary, foreign] = await Promise.all([startPrivateCluster(), startPrivateCluster()])
    await Promise.all([migrated(primary.url), migrated(foreign.url)])
    // Someone else's catalog on the other cluster, which a read sent there would list.
    const other = await createSiblingApp(foreign.url)
    await createAutoItem(other.app, 1, { name: 'Foreign Voucher' })
    await other.close()
  }, 120_000)
  afterAll(async () => {
    await late?.destroy()
    await foreign?.destroy()
    await primary?.destroy()
  })

  it('gets no reads: the primary serves them without an error, and the primary itself as a read URL serves', async () => {
    const app = await createSiblingApp(primary.url, {}, { databaseReadUrls: [foreign.url, primary.url], readMaxLagMs: 600_000 })
    const shop = await createReseller(app.app, { balance: 100_000 })
    await createAutoItem(app.app, 2, { name: 'Own Voucher' })
    for (let round = 0; round < 4; round++) {
      for (const url of ['/trx', '/balance/mutations', '/leaderboard/profile']) expect((await get(app.app, url, shop)).statusCode).toBe(200)
      const names = listedNames(await get(app.app, '/item', shop))
      expect(names).toContain('Own Voucher')
      expect(names).not.toContain('Foreign Voucher')
    }
    expect(await metricLine(app.app, 'db_replica_usable', poolName(foreign.url))).toBe(
      `db_replica_usable{pool="${poolName(foreign.url)}",reason="other_cluster"} 0`,
    )
    expect(await metricLine(app.app, 'db_reads_total', poolName(foreign.url))).toBe(`db_reads_total{pool="${poolName(foreign.url)}"} 0`)
    // Not in recovery and of the same cluster: the primary named again is a read server like a replica.
    expect(await metricLine(app.app, 'db_replica_usable', poolName(primary.url))).toBe(
      `db_replica_usable{pool="${poolName(primary.url)}"} 1`,
    )
    expect(Number((await metricLine(app.app, 'db_reads_total', poolName(primary.url)))?.split(' ').pop())).toBeGreaterThan(0)
  })

  it('is checked when it first answers: a URL whose server comes up later, of another cluster, gets no reads', async () => {
    const port = await freePort()
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`
    const app = await createSiblingApp(primary.url, {}, { databaseReadUrls: [url], readMaxLagMs: 600_000 })
    const shop = await createReseller(app.app)
    expect(await metricLine(app.app, 'db_replica_usable', poolName(url))).toBe(
      `db_replica_usable{pool="${poolName(url)}",reason="unreachable"} 0`,
    )
    // An empty cluster: a read sent there would fail on a missing table, a 500.
    late = await startPrivateCluster(port)
    await until(
      'the late server is refused',
      async () => (await metricLine(app.app, 'db_replica_usable', poolName(url)))?.includes('other_cluster') === true,
    )
    for (const path of ['/trx', '/balance/mutations', '/item']) expect((await get(app.app, path, shop)).statusCode).toBe(200)
    expect(await metricLine(app.app, 'db_reads_total', poolName(url))).toBe(`db_reads_total{pool="${poolName(url)}"} 0`)
  })

  it('says so in the log, and skips the check (the server then serves) where pg_control_system() is not permitted', async () => {
    const admin = new pg.Client({ connectionString: primary.url })
    await admin.connect()
    await admin.query('CREATE ROLE reader LOGIN; REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC')
    await admin.end()
    const reader = primary.url.replace('postgres@', 'reader@')
    const lines: { level: string; fields: any; message: string }[] = []
    const log = {
      warn: (fields: object, message: string) => lines.push({ level: 'warn', fields, message }),
      error: (fields: object, message: string) => lines.push({ level: 'error', fields, message }),
    }
    const handle = await openPostgres(primary.url, 2)
    const reads = await openReadPools(handle, [foreign.url, reader], { poolMax: 2, maxLagMs: 5000, log, checkEveryMs: 200 })
    const watcher = new pg.Client({ connectionString: foreign.url })
    await watcher.connect()
    try {
      // The refused server is asked again at each check (its URL may be mended); said once all the same.
      const [{ at }] = (await watcher.query<{ at: Date }>('SELECT now() AS at')).rows
      await until('a later check asked the refused server again', async () => {
        const asked = await watcher.query(
          "SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%pg_control_system%' AND query_start > $1",
          [new Date(at.getTime() + 500)],
        )
        return asked.rowCount! > 0
      })
      const [, refused, unchecked] = reads.stats()
      expect([refused.usable, refused.reason, unchecked.usable, unchecked.reason]).toEqual([false, 'other_cluster', true, undefined])
      expect(lines.map((l) => [l.level, l.fields.pool]).sort()).toEqual([
        ['error', poolName(foreign.url)],
        ['warn', poolName(reader)],
      ])
      lines.sort((a, b) => a.level.localeCompare(b.level))
      expect(lines[0].message).toContain('not a standby of DATABASE_URL')
      expect(lines[0].fields.system_identifier).not.toBe(lines[0].fields.primary_system_identifier)
      expect(lines[1].message).toContain('was skipped')
      expect(lines[1].fields.cause).toContain('permission denied')
    } finally {
      await watcher.end()
      await reads.close()
      await handle.close()
    }
  })
})
