import { sql } from 'kysely'
import type { Config } from './config.js'
import type { Database, DatabaseHandle, PreparedStatement } from './db/database.js'
import { listen, type Listen } from './db/notifications.js'
import { primaryReads, type ReadPools } from './db/replicas.js'
import { createKeptPages, type KeptPages } from './http/kept-pages.js'
import { type AccountCountersReader, accountCountersReader, type AuthCache, createAuthCache } from './modules/accounts/index.js'
import { type CatalogCache, createCatalogCache, toVariant } from './modules/catalog/index.js'
import { checkout, type Checkout } from './modules/checkout/index.js'
import { createFulfilment, fulfillableProcesses, type Fulfilment, type LineDispatcher } from './modules/fulfilment/index.js'
import { type DetailByRef, detailByRefReader } from './modules/orders/index.js'
import { createLeaderboardCache, type LeaderboardCache } from './modules/leaderboard/index.js'
import { memoryCounterStore, rateLimiter, redisCounterStore, type CounterStore, type RateLimiter } from './http/rate-limit.js'
import { createPaymentGateway, type PaymentGateway } from './modules/topups/index.js'
import { type Clock, createTransport, systemClock, type Transport } from './modules/webhooks/index.js'
import { createVault, type Vault } from './vault.js'
import type { Actor } from './db/acting.js'

/** Everything a request or a worker needs, wired by hand in one place. */
export type AppContext = {
  config: Config
  db: Database
  /**
   * Reads that tolerate seconds of lag (catalog, lists, reports: docs/operating.md#read-replicas): each
   * query on a replica within READ_MAX_LAG_MS, else on the primary; without replicas it is `db`.
   */
  dbRead: Database
  /** `prepared` for the same reads, as `dbRead` routes them. */
  preparedRead: PreparedStatement
  /** A list and its version read on one server, so a kept page (http/kept-pages.ts) is never older than its version. */
  listReads(): { db: Database; accountCounters: AccountCountersReader }
  /** The primary's and the replicas' pools, for /metrics. */
  readPools: ReadPools
  /** The webhook worker's: on PostgreSQL a pool of its own whose plans stay on keys (KEYED_PLANS). */
  webhookDb: Database
  /** One statement outside any transaction; on PostgreSQL a named prepared statement (auth, purchase). */
  prepared: PreparedStatement
  /** NOTIFY from any process sharing the database (workers, the auth cache). */
  listen: Listen
  /** Time as retry schedules see it; tests move it by hand. */
  clock: Clock
  /** Outgoing HTTP of the payment gateway and the validation source. */
  fetch: typeof fetch
  vault: Vault
  counters: CounterStore
  /** Requests per API key (RATE_LIMIT_PER_MINUTE). */
  rateLimiter?: RateLimiter
  /** Failed authentications (wrong key, token or signature) per client address (AUTH_FAILURES_PER_MINUTE). */
  authFailures?: RateLimiter
  authCache: AuthCache
  /** The balance and list versions polled reads need, batched per event-loop turn. */
  accountCounters: AccountCountersReader
  /** GET /trx/{ref}'s detail; orders batched per event-loop turn. */
  detailByRef: DetailByRef
  /** Unfiltered list pages bots poll, each with its list's version (http/kept-pages.ts), one bound per process. */
  keptPages: KeptPages
  /** The catalog listing's per-process snapshot (renewed on edits, at most a second old). */
  catalog: CatalogCache
  /** Each month's points per process, for ranks (at most a second old; a sale touches no shared row). */
  leaderboard: LeaderboardCache
  dispatchers: LineDispatcher[]
  /** Upstream h2h and smm requests: the upstream worker (the one send path) and the smm status poller. */
  fulfilment: Fulfilment
  /** The flows across modules (the purchase, a bill's payment, operator cancel, a review's resolution): routes of orders, bills and fulfilment call them here. */
  checkout: Checkout
  /** The order processes a purchase accepts now (auto, manual, and those with a dispatcher). */
  fulfillable: string[]
  /** PAYMENT_GATEWAY: where top-ups get their payment links. */
  paymentGateway: PaymentGateway
  /** Sends webhook callbacks (keep-alive agents, SSRF guard in production). */
  webhookTransport: Transport
  /** Who ADMIN_TOKEN acts as when not the "admin token" owner (the CLI on the database itself: docs/design.md §11d). */
  adminTokenActor?: Actor
}

// Bounds how long a change missed by every notification path could go unseen.
const AUTH_CACHE_MS = 5_000

/** What tests swap: the clock, outgoing fetch, line dispatchers, the payment gateway, the webhook transport. */
export type ContextOverrides = Partial<Pick<AppContext, 'clock' | 'fetch' | 'dispatchers' | 'paymentGateway' | 'webhookTransport'>>

/** Wires the context on an open database; openService (src/service.ts) is the one caller outside tests of a dead database. */
export function createContext(
  config: Config,
  database: DatabaseHandle,
  overrides: ContextOverrides = {},
  webhookDatabase: DatabaseHandle = database,
  reads: ReadPools = primaryReads(database),
): AppContext {
  if (!config.appKey) throw new Error('APP_KEY is not set')
  const counters = config.redisUrl ? redisCounterStore(config.redisUrl) : memoryCounterStore()
  const clock = overrides.clock ?? systemClock
  const perKey = config.rateLimitPerMinute === 0 ? undefined : rateLimiter(counters, 'ratelimit', config.rateLimitPerMinute, clock)
  const authFailures =
    config.authFailuresPerMinute === 0 ? undefined : rateLimiter(counters, 'authfail', config.authFailuresPerMinute, clock)
  const vault = createVault(config.appKey)
  const fulfilment = createFulfilment(database.db, vault, {
    providerPollSeconds: config.providerPollSeconds,
    providerTimeoutMs: config.providerTimeoutMs,
    dbStatementTimeoutMs: config.dbStatementTimeoutMs,
    upstream: { concurrency: config.upstreamConcurrency, perHost: config.upstreamPerHost },
    recordFinal: checkout.recordFinal,
  })
  const dispatchers = overrides.dispatchers ?? fulfilment.lineDispatchers
  const webhookTransport =
    overrides.webhookTransport ?? createTransport({ production: config.appEnv === 'production', timeoutMs: config.webhookTimeoutMs })
  const fetchFn = overrides.fetch ?? globalThis.fetch
  // Each replica's own batched reader: a version read on a replica goes with a page read there.
  const countersOn = new Map(
    reads.targets.filter((target) => target.db !== database.db).map((target) => [target, accountCountersReader(target.prepared)]),
  )
  const ctx: AppContext = {
    config,
    db: database.db,
    dbRead: reads.db,
    preparedRead: reads.prepared,
    listReads() {
      const target = reads.choose()
      return { db: target.db, accountCounters: countersOn.get(target) ?? ctx.accountCounters }
    },
    readPools: reads,
    webhookDb: webhookDatabase.db,
    prepared: database.prepared,
    listen: (channel, onMessage, onLost) => listen(database, channel, onMessage, onLost),
    clock,
    fetch: fetchFn,
    vault,
    counters,
    rateLimiter: perKey,
    authFailures,
    authCache: createAuthCache(AUTH_CACHE_MS),
    accountCounters: accountCountersReader(database.prepared),
    detailByRef: detailByRefReader(database.prepared, vault),
    keptPages: createKeptPages(),
    catalog: createCatalogCache(database.db, toVariant, reads.db),
    leaderboard: createLeaderboardCache(reads.db),
    dispatchers,
    fulfilment,
    checkout,
    fulfillable: fulfillableProcesses(dispatchers),
    paymentGateway: overrides.paymentGateway ?? createPaymentGateway(config, fetchFn),
    webhookTransport,
  }
  return ctx
}

/** The database remembers which APP_KEY encrypted it; another key would make its secrets unreadable. */
export async function checkAppKey(db: Database, vault: Vault): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('app_key_fingerprint', ${vault.keyFingerprint}) ON CONFLICT (key) DO NOTHING`.execute(
    db,
  )
  const row = await db.selectFrom('app_meta').select('value').where('key', '=', 'app_key_fingerprint').executeTakeFirstOrThrow()
  if (row.value !== vault.keyFingerprint) {
    throw new Error('APP_KEY differs from the key this database was created with; refusing to start (restore the original APP_KEY)')
  }
}
