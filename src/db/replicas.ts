import { Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import {
  discardingLostClients,
  isDatabaseUnavailable,
  openPostgres,
  type Database,
  type DatabaseHandle,
  type DatabaseTimeouts,
  type PostgresOptions,
  type PreparedStatement,
} from './database.js'
import { identityOnPool, membership, tellMembership, type ClusterIdentity, type Membership, type ReplicaLog } from './replica-identity.js'
import { createLagMeter, primaryPosition, readReplica } from './replica-lag.js'
import type { DB } from './schema.js'

/** One server reads can go to: the primary, or a replica named by its host, port and database. */
export type ReadTarget = { name: string; db: Database; prepared: PreparedStatement }

/**
 * Reads that tolerate seconds of lag (docs/operating.md#read-replicas). `db` sends each query to a
 * replica within READ_MAX_LAG_MS, round robin, else to the primary; without replicas it is the primary's.
 */
export type ReadPools = {
  db: Database
  /** One statement as `db` would route it; a named prepared statement on whichever server it runs. */
  prepared: PreparedStatement
  /** One server for reads that must see the same one (a list's version, then its page). */
  choose(): ReadTarget
  /** The primary first, then each replica. */
  targets: ReadTarget[]
  /** Per pool, for /metrics (db/replica-metrics.ts). */
  stats(): PoolStats[]
  close(): Promise<void>
}

export type PoolStats = {
  name: string
  pool?: pg.Pool
  /** Connections handed out for reads, since the start. */
  reads: number
  /** Replicas only: the lag at the last check (undefined: unreachable or not checked yet), and whether reads go there now. */
  lagMs?: number
  usable?: boolean
  /** Replicas only, when not usable: why. */
  reason?: 'lagging' | 'unreachable' | 'other_cluster'
}

/** Without replicas: every read on the primary. */
export function primaryReads(primary: DatabaseHandle): ReadPools {
  const target = { name: 'primary', db: primary.db, prepared: primary.prepared }
  return {
    db: primary.db,
    prepared: primary.prepared,
    choose: () => target,
    targets: [target],
    stats: () => [{ name: 'primary', pool: primary.pool, reads: 0 }],
    close: async () => {},
  }
}

/** `pooler` and `namedStatements` as the primary's: replicas sit behind the same kind of pooler (DATABASE_POOLER). */
export type ReplicaOptions = {
  poolMax: number
  maxLagMs: number
  timeouts?: DatabaseTimeouts
  checkEveryMs?: number
  log?: ReplicaLog
} & Pick<PostgresOptions, 'pooler' | 'namedStatements'>

type Replica = {
  target: ReadTarget
  handle: DatabaseHandle
  pool: pg.Pool
  /** The pool as Kysely's connections come from it: lost clients dropped, statements as the options say. */
  connections: pg.Pool
  lagMs?: number
  checkedAt: number
  reads: number
  /** Its cluster as checked since it was last reachable; undefined: not yet (it gets no reads meanwhile). */
  member?: Membership
  /** The verdict last logged: each change is said once. */
  told?: Membership
}

const CHECK_EVERY_MS = 1000

/** Opens a pool per replica URL (connecting lazily) and checks their lag every second, until closed. */
export async function openReadPools(primary: DatabaseHandle, urls: string[], options: ReplicaOptions): Promise<ReadPools> {
  if (urls.length === 0 || !primary.pool) return primaryReads(primary)
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS
  // The primary's reads go out as its own queries do (behind a pooler: SET LOCAL, statements named or not).
  const primaryPool = primary.connections ?? discardingLostClients(primary.pool, async () => {})
  const primaryTarget = { name: 'primary', db: primary.db, prepared: primary.prepared }
  let primaryReadCount = 0
  const replicas: Replica[] = []
  for (const url of urls) {
    // A standby takes no LISTEN: nothing listens there.
    const { pooler, namedStatements, timeouts } = options
    const handle = await openPostgres(url, options.poolMax, { timeouts, pooler, namedStatements, listenUrl: null })
    const pool = handle.pool!
    const connections = handle.connections!
    const replica: Replica = { handle, pool, connections, checkedAt: 0, reads: 0, target: undefined as unknown as ReadTarget }
    const pinned = routingKysely(() => (replica.lagMs === undefined ? undefined : replica))
    replica.target = { name: nameOf(url), db: pinned, prepared: fallingBackPrepared(replica, primary.prepared) }
    replicas.push(replica)
  }
  // Its lag at the check, plus the time since: a replica whose checks stopped answering ages out by itself.
  const usable = (r: Replica, now = Date.now()) => r.lagMs !== undefined && r.lagMs + (now - r.checkedAt) <= options.maxLagMs
  const whyNot = (r: Replica): PoolStats['reason'] =>
    r.member === 'other' ? 'other_cluster' : r.lagMs === undefined ? 'unreachable' : usable(r) ? undefined : 'lagging'
  let turn = 0
  const next = (): Replica | undefined => {
    const now = Date.now()
    for (let i = 0; i < replicas.length; i++) {
      const r = replicas[(turn + i) % replicas.length]
      if (usable(r, now)) {
        turn = (turn + i + 1) % replicas.length
        return r
      }
    }
    return undefined
  }

  function routingKysely(pick: () => Replica | undefined): Database {
    const pool = {
      async connect() {
        const replica = pick()
        if (replica) {
          try {
            const client = await replica.connections.connect()
            replica.reads++
            return fallingBackClient(client, replica)
          } catch (error) {
            if (!isReplicaLoss(error)) throw error
            replica.lagMs = undefined
          }
        }
        primaryReadCount++
        return primaryPool.connect()
      },
      end: async () => {},
    }
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }) })
  }

  // A read outside a transaction that loses its replica runs again on the primary: a lost replica costs no request.
  function fallingBackClient(first: pg.PoolClient, replica: Replica) {
    let client = first
    let inTransaction = false
    return {
      async query(text: string, values: unknown[]) {
        try {
          const result = await client.query(text, values)
          if (TRANSACTION_OPENS.test(text)) inTransaction = true
          else if (TRANSACTION_ENDS.test(text)) inTransaction = false
          return result
        } catch (error) {
          if (inTransaction || client !== first || !isReplicaLoss(error)) throw error
          replica.lagMs = undefined
          first.release()
          client = await primaryPool.connect()
          primaryReadCount++
          return client.query(text, values)
        }
      },
      release: () => client.release(),
    }
  }

  const meter = createLagMeter(options.maxLagMs)
  const log = options.log
  // The primary's cluster, read once (a failover's new primary keeps it); undefined until it answers.
  let primaryIdentity: ClusterIdentity | undefined
  let checking: Promise<void> | undefined
  const check = () => (checking ??= checkAll().finally(() => (checking = undefined)))
  async function checkAll() {
    primaryIdentity ??= await withinMs(identityOnPool(primary.pool!), checkEveryMs)
    // The primary's position before any replica's: a replica at it had everything the primary had then.
    await primaryPosition(primary.db).then(
      (lsn) => meter.sample(lsn),
      () => {},
    )
    await Promise.all(
      replicas.map(async (r) => {
        // At the start and whenever it comes back from unreachable: the URL may now lead elsewhere.
        if (r.lagMs === undefined) r.member = await verify(r)
        const reading = r.member === 'same' || r.member === 'unchecked' ? await withinMs(readReplica(r.pool), checkEveryMs) : undefined
        r.lagMs = reading === undefined ? undefined : meter.lagMs(reading)
        r.checkedAt = Date.now()
      }),
    )
  }
  /** Whether the replica is of the primary's cluster; undefined when either did not answer (checked again in a second). */
  async function verify(r: Replica): Promise<Membership | undefined> {
    const own = primaryIdentity && (await withinMs(identityOnPool(r.pool), checkEveryMs))
    if (!primaryIdentity || !own) return undefined
    const member = membership(primaryIdentity, own)
    // Each new verdict said once. A foreign server stays unreachable to reads, so it is checked again each second.
    if (member !== r.told && log) tellMembership(log, r.target.name, primaryIdentity, own)
    r.told = member
    return member
  }
  await check()
  const timer = setInterval(() => void check(), checkEveryMs)
  timer.unref()

  return {
    db: routingKysely(next),
    prepared: (name, text, values) => (next()?.target ?? primaryTarget).prepared(name, text, values),
    choose: () => next()?.target ?? primaryTarget,
    targets: [primaryTarget, ...replicas.map((r) => r.target)],
    stats: () => [
      { name: 'primary', pool: primary.pool, reads: primaryReadCount },
      ...replicas.map((r) => ({ name: r.target.name, pool: r.pool, reads: r.reads, lagMs: r.lagMs, usable: usable(r), reason: whyNot(r) })),
    ],
    async close() {
      clearInterval(timer)
      await checking
      await Promise.all(replicas.map((r) => r.handle.close()))
    },
  }

  function fallingBackPrepared(replica: Replica, onPrimary: PreparedStatement): PreparedStatement {
    return async (name, text, values) => {
      if (replica.lagMs !== undefined) {
        try {
          const rows = await replica.handle.prepared(name, text, values)
          replica.reads++
          return rows as never
        } catch (error) {
          if (!isReplicaLoss(error)) throw error
          replica.lagMs = undefined
        }
      }
      primaryReadCount++
      return onPrimary(name, text, values)
    }
  }
}

// What Kysely sends to open and end a transaction on a connection it holds (as database.ts tracks them).
const TRANSACTION_OPENS = /^\s*(begin|start transaction)\b/i
const TRANSACTION_ENDS = /^\s*(commit|rollback)\s*$/i

// Lost, hung, or a query cancelled because replay had to remove rows it read (40001 on a standby).
const isReplicaLoss = (error: unknown) => isDatabaseUnavailable(error) || (error as { code?: string }).code === '40001'

/** The label a replica's metrics carry: host, port and database, never the credentials. */
function nameOf(url: string): string {
  const u = new URL(url)
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`
}

async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))
  try {
    return await Promise.race([promise.catch(() => undefined), late])
  } finally {
    clearTimeout(timer)
  }
}
