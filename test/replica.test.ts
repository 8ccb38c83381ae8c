import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { ADMIN_TOKEN, createSiblingApp, type TestApp } from './app.js'
import { signedIn } from './console.js'
import { onPostgres } from './database.js'
import { pause, until } from './eventually.js'
import { admin, createAutoItem, createReseller, get, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { binDir, startPrivateCluster, startReplica, type PrivateCluster } from './private-postgres.js'

// docs/operating.md#read-replicas, drilled on real servers: a private primary (the shared one on 5432
// allows no replication) and a streaming replica of it made with pg_basebackup -R.
const programs = binDir()
if (onPostgres && !programs)
  console.warn('replica drill skipped: no pg_basebackup/pg_ctl under /usr/lib/postgresql (apt-get install postgresql)')

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text)).rows
  } finally {
    await client.end()
  }
}

/** The metric's value for one pool in the app's /metrics text (0 when absent). */
async function metric(app: TestApp['app'], name: string, pool: string): Promise<number> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  const line = res.body.split('\n').find((l) => l.startsWith(`${name}{pool="${pool}"}`))
  return line ? Number(line.split(' ').pop()) : 0
}

/** The variants' names in a catalog listing. */
function listedNames(res: { json(): any }): string[] {
  return res.json().data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants.map((v: { name: string }) => v.name)))
}

describe.skipIf(!onPostgres || !programs)('read replicas (PostgreSQL, a streaming replica)', () => {
  let primary: PrivateCluster
  let replica: PrivateCluster | undefined
  let replicaName: string
  // Reads to a replica however far behind (a paused replay shows what it serves), and within one second.
  let patient: TestApp
  let strict: TestApp
  let shop: Reseller
  let item: { id: number }

  beforeAll(async () => {
    primary = await startPrivateCluster()
    const migrating = await openPostgres(primary.url, 2)
    await migrateToLatest(migrating.db).finally(() => migrating.close())
    replica = await startReplica(primary)
    const url = new URL(replica.url)
    replicaName = `${url.hostname}:${url.port}${url.pathname}`
    patient = await createSiblingApp(primary.url, {}, { databaseReadUrls: [replica.url], readMaxLagMs: 600_000 })
    strict = await createSiblingApp(primary.url, {}, { databaseReadUrls: [replica.url], readMaxLagMs: 1000 })
    shop = await createReseller(patient.app, { balance: 1_000_000 })
    item = await createAutoItem(patient.app, 5, { name: 'Voucher Before' })
  }, 120_000)
  afterAll(async () => {
    await patient?.close()
    await strict?.close()
    await replica?.destroy()
    await primary?.destroy()
  })

  it('serves the catalog, the lists and the leaderboard from the replica once it has replayed them', async () => {
    await until('the replica has the item', async () => (await query(replica!.url, `SELECT 1 FROM items WHERE id = ${item.id}`)).length > 0)
    const before = await metric(patient.app, 'db_reads_total', replicaName)
    for (const url of [`/item/${item.id}`, '/item', '/trx', '/balance/mutations', '/leaderboard', '/leaderboard/profile']) {
      const res = await get(patient.app, url, shop)
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
    }
    expect(await metric(patient.app, 'db_reads_total', replicaName)).toBeGreaterThan(before)
    expect(await metric(patient.app, 'db_replica_usable', replicaName)).toBe(1)
    // What the replica served: a backend of this database on the replica's server, not the primary's.
    const onReplica = await query<{ n: number }>(
      replica!.url,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'postgres' AND backend_type = 'client backend'",
    )
    expect(onReplica[0].n).toBeGreaterThan(1)
  })

  it('with replay paused: a purchase is read back at once from the primary, lists lag on the replica, and past the bound reads go to the primary', async () => {
    await query(replica!.url, 'SELECT pg_wal_replay_pause()')
    let serverTime = ''
    try {
      const bought = await buy(patient.app, shop, 'REPLICA-1', [{ item_id: item.id, quantity: 1 }])
      expect(bought.statusCode, bought.body).toBe(200)
      await admin(patient.app, 'PATCH', `/items/${item.id}`, { name: 'Voucher After' })

      // The caller's own write, at once: GET /trx/{ref} and the balance are the primary's.
      const detail = await get(patient.app, '/trx/REPLICA-1', shop)
      expect(detail.statusCode).toBe(200)
      expect(detail.json().data.status).toBe('completed')
      expect((await get(patient.app, '/balance', shop)).json().data.balance).toBe(1_000_000 - 10_000)
      // A lag-tolerant read on the paused replica: the list without the order, the item's old name.
      const list = await get(patient.app, '/trx', shop)
      expect(list.json().data.map((o: { ref_id: string }) => o.ref_id)).not.toContain('REPLICA-1')
      expect((await get(patient.app, `/item/${item.id}`, shop)).json().data.name).toBe('Voucher Before')
      expect(listedNames(await get(patient.app, '/item', shop))).toContain('Voucher Before')
      // A snapshot past its second (renewed after the rename was observed committed on the primary):
      // its server_time must still come before the rename the replica has not replayed.
      await pause(1100)
      const stale = await get(patient.app, '/item', shop)
      expect(listedNames(stale)).toContain('Voucher Before')
      serverTime = stale.json().server_time

      // A console form's next page reads the primary (this browser wrote a moment ago); another browser's, the replica.
      const operator = await signedIn(patient.app)
      await operator.get('/console/resellers')
      expect((await operator.post('/console/resellers', { name: 'Replica Shop' })).status).toBe(200)
      expect((await operator.get('/console/resellers')).body).toContain('Replica Shop')
      const other = await signedIn(patient.app)
      other.cookies.delete('wrote_recently')
      const page = await other.get('/console/resellers')
      expect(page.status).toBe(200)
      expect(page.body).not.toContain('Replica Shop')

      // Past READ_MAX_LAG_MS the replica is skipped: the same reads see the primary, without an error.
      await until(
        'reads past the lag bound go to the primary',
        async () => (await metric(strict.app, 'db_replica_usable', replicaName)) === 0,
      )
      const fresh = await get(strict.app, '/trx', shop)
      expect(fresh.statusCode).toBe(200)
      expect(fresh.json().data.map((o: { ref_id: string }) => o.ref_id)).toContain('REPLICA-1')
      expect((await get(strict.app, `/item/${item.id}`, shop)).json().data.name).toBe('Voucher After')
      expect(listedNames(await get(strict.app, '/item', shop))).toContain('Voucher After')
      const mutations = await get(strict.app, '/balance/mutations', shop)
      expect(mutations.json().data).toHaveLength(2)
    } finally {
      await query(replica!.url, 'SELECT pg_wal_replay_resume()')
    }
    // Replay resumed: the replica serves again, now with the order.
    await until('the replica is back within the bound', async () => (await metric(strict.app, 'db_replica_usable', replicaName)) === 1)
    const list = await get(patient.app, '/trx', shop)
    expect(list.json().data.map((o: { ref_id: string }) => o.ref_id)).toContain('REPLICA-1')
    // The stale listing's server_time is a delta cursor that misses nothing the replica had not replayed.
    await until(
      'a delta from the stale listing has the rename',
      async () =>
        listedNames(await get(patient.app, `/item?updated_since=${encodeURIComponent(serverTime)}`, shop)).includes('Voucher After'),
      { timeoutMs: 15_000 },
    )
  })

  it('a replica killed: reads answer from the primary, without an error', async () => {
    // Connections to the replica are open and idle in the pools: the first reads find them dead.
    for (const url of ['/trx', '/balance/mutations', `/item/${item.id}`]) expect((await get(patient.app, url, shop)).statusCode).toBe(200)
    await replica!.destroy()
    replica = undefined
    for (let round = 0; round < 3; round++) {
      for (const url of ['/trx', '/balance/mutations', `/item/${item.id}`, '/item', '/leaderboard/profile']) {
        const res = await get(patient.app, url, shop)
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
      }
    }
    expect((await get(patient.app, '/trx', shop)).json().data.map((o: { ref_id: string }) => o.ref_id)).toContain('REPLICA-1')
    const operator = await patient.app.inject({ url: '/api/admin/v1/transactions', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(operator.statusCode).toBe(200)
    await until('the killed replica is marked unusable', async () => (await metric(patient.app, 'db_replica_usable', replicaName)) === 0)
  })
})
