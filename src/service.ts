import path from 'node:path'
import { pino, type Logger } from 'pino'
import { runsWorkers, servesApi, type Config } from './config.js'
import { checkAppKey, createContext, type AppContext, type ContextOverrides } from './context.js'
import { acquireDataDirLock, prepareEmbeddedApart } from './db/data-dir.js'
import { KEYED_PLANS, openPGlite, openPostgres, type DatabaseHandle } from './db/database.js'
import { migrateToLatest } from './db/migrate.js'
import { openReadPools, type ReadPools } from './db/replicas.js'
import { storeRoleDefaults } from './db/role-defaults.js'
import { recordLeaderboardZone } from './modules/leaderboard/index.js'
import { recordMinMargin } from './modules/suppliers/index.js'
import { checkMootaSecret } from './modules/topups/index.js'

export type ServiceOverrides = ContextOverrides & {
  /** An open, migrated database (tests: a clone of the template); closed with the service. */
  database?: DatabaseHandle
}

/** The opened service: its context, the background work's logger, and the one way to shut it. */
export type Service = { ctx: AppContext; log: Logger; close(): Promise<void> }

/** Told each step of a start as it begins (main prints them: a first start migrates for a while). */
export type Progress = (step: string) => void

/** The one boot path (main, the CLI in-process, tests): database → migrations → context → APP_KEY check. */
export async function openService(config: Config, overrides: ServiceOverrides = {}, progress: Progress = () => {}): Promise<Service> {
  const { database, release } = overrides.database
    ? { database: overrides.database, release: () => {} }
    : await openDatabase(config, progress)
  let webhookDatabase = database
  let reads: ReadPools | undefined
  const closeDatabases = async () => {
    await reads?.close()
    if (webhookDatabase !== database) await webhookDatabase.close()
    await database.close()
    release()
  }
  let ctx: AppContext
  try {
    if (!overrides.database) webhookDatabase = await openWebhookDatabase(config, database)
    // Workers read what they then write: replicas serve the API's lag-tolerant reads only.
    reads = await openReadPools(database, servesApi(config.role) ? config.databaseReadUrls : [], {
      poolMax: config.dbPoolMax,
      maxLagMs: config.readMaxLagMs,
      timeouts: databaseTimeouts(config),
      pooler: config.databasePooler,
      namedStatements: config.dbNamedStatements,
      // A read URL refused, or its check skipped: said at the start, where the operator looks.
      log: pino({ level: config.logLevel, name: 'replicas' }),
    })
    ctx = createContext(config, database, overrides, webhookDatabase, reads)
    await checkAppKey(ctx.db, ctx.vault)
    await recordLeaderboardZone(ctx.db, config.leaderboardTz)
    await recordMinMargin(ctx.db, config.minMargin)
    await checkMootaSecret(ctx.db, ctx)
  } catch (error) {
    await closeDatabases()
    throw error
  }
  // Workers log on their own, not through an HTTP app (a ROLE=worker process has none).
  const log = pino({ level: config.logLevel, name: 'workers' })
  let closed = false
  return {
    ctx,
    log,
    async close() {
      if (closed) return
      closed = true
      await ctx.counters.close()
      ctx.webhookTransport.close()
      await closeDatabases()
    },
  }
}

// The webhook worker's connections: a relay, a claim, a message build and a record at once.
const WEBHOOK_POOL_MAX = 4

/** On PostgreSQL the webhook worker's own small pool, where its prepared statements keep keyed plans; else the one database. */
async function openWebhookDatabase(config: Config, database: DatabaseHandle): Promise<DatabaseHandle> {
  if (!config.databaseUrl || !runsWorkers(config.role)) return database
  return openPostgres(config.databaseUrl, WEBHOOK_POOL_MAX, {
    timeouts: databaseTimeouts(config),
    settings: WEBHOOK_POOL_SETTINGS,
    ...connecting(config),
  })
}

// Commits without waiting for the WAL flush (a fifth of the pool's CPU went to fdatasync): a crash
// loses at most the last moments of relays and attempt records, which run again under the same
// webhook-id (derived from the outbox event), so a receiver sees a duplicate it can recognise.
// Nothing here moves money or stock.
export const WEBHOOK_POOL_SETTINGS = [...KEYED_PLANS, 'synchronous_commit=off']

const databaseTimeouts = (config: Config) => ({
  connectMs: config.dbConnectTimeoutMs,
  statementMs: config.dbStatementTimeoutMs,
  queryMs: config.dbQueryTimeoutMs,
  idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
})

/** ROLE=migrate, a deploy step: the versioned migrations and the changed database functions, then nothing stays open. */
export async function migrateDatabase(config: Config, progress: Progress = () => {}): Promise<void> {
  if (config.databaseUrl) return migratePostgres(config, config.databaseUrl, progress)
  const { database, release } = await openDatabase(config, progress)
  await database.close()
  release()
}

async function migratePostgres(config: Config, url: string, progress: Progress): Promise<void> {
  progress('migrating PostgreSQL')
  // Migrations may wait for another process's or build an index: not under the request timeouts.
  const migrating = await openPostgres(url, 2, { pooler: config.databasePooler, namedStatements: config.dbNamedStatements })
  try {
    await migrateToLatest(migrating.db)
    if (config.databasePooler === 'transaction') await storeRoleDefaults(migrating.db, databaseTimeouts(config))
  } finally {
    await migrating.close()
  }
}

/** How every PostgreSQL pool of the process connects: directly, or through a transaction pooler. */
const connecting = (config: Config) => ({
  pooler: config.databasePooler,
  namedStatements: config.dbNamedStatements,
  listenUrl: config.databaseListenUrl,
})

/** The migrated database, and the release of the embedded one's lock. */
async function openDatabase(config: Config, progress: Progress): Promise<{ database: DatabaseHandle; release: () => void }> {
  if (config.databaseUrl) {
    await migratePostgres(config, config.databaseUrl, progress)
    return {
      database: await openPostgres(config.databaseUrl, config.dbPoolMax, {
        timeouts: databaseTimeouts(config),
        pipelines: config.dbPipelines,
        ...connecting(config),
      }),
      release: () => {},
    }
  }
  const release = config.dataDir === 'memory' ? () => {} : acquireDataDirLock(config.dataDir)
  try {
    progress(`opening the embedded database (${config.dataDir === 'memory' ? 'in memory' : path.join(config.dataDir, 'pglite')})`)
    if (config.dataDir !== 'memory') await prepareEmbeddedApart(path.join(config.dataDir, 'pglite'))
    const database = await openPGlite({
      ...(config.dataDir !== 'memory' && { dataDir: path.join(config.dataDir, 'pglite') }),
      sharedBuffersMb: config.embeddedSharedBuffersMb,
    })
    progress('migrating it (a first start creates every table: up to a minute on a slow machine)')
    await migrateToLatest(database.db).catch(async (error: unknown) => {
      await database.close()
      throw error
    })
    return { database, release }
  } catch (error) {
    release()
    throw error
  }
}
