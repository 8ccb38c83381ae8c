import { sql } from 'kysely'
import type { Config } from './config.js'
import type { Database, DatabaseHandle } from './db/database.js'
import { createAuthCache, type AuthCache } from './modules/accounts/auth-cache.js'
import { createCatalogCache, type CatalogCache } from './modules/catalog/catalog-snapshot.js'
import { toVariant } from './modules/catalog/catalog.service.js'
import { fulfillableProcesses, type LineDispatcher } from './modules/fulfilment/dispatch.js'
import { createFulfilment, type Fulfilment } from './modules/fulfilment/fulfilment.js'
import { memoryCounterStore, rateLimiter, redisCounterStore, type CounterStore, type RateLimiter } from './http/rate-limit.js'
import type { PaymentGateway } from './modules/topups/gateway.js'
import { createPaymentGateway } from './modules/topups/gateways.js'
import { createTransport, type Transport } from './modules/webhooks/transport.js'
import { createVault, type Vault } from './vault.js'

/** Everything a request or a worker needs, wired by hand in one place. */
export type AppContext = {
  config: Config
  db: Database
  database: DatabaseHandle
  vault: Vault
  counters: CounterStore
  /** Requests per API key (RATE_LIMIT_PER_MINUTE). */
  rateLimiter?: RateLimiter
  /** Unknown API keys per client address (AUTH_FAILURES_PER_MINUTE). */
  authFailures?: RateLimiter
  authCache: AuthCache
  /** The catalog listing's per-process snapshot (renewed on edits, at most a second old). */
  catalog: CatalogCache
  dispatchers: LineDispatcher[]
  /** Upstream h2h and smm requests: the dispatcher and poller workers. */
  fulfilment: Fulfilment
  /** The order processes a purchase accepts now (auto, manual, and those with a dispatcher). */
  fulfillable: string[]
  /** PAYMENT_GATEWAY: where top-ups get their payment links. */
  paymentGateway: PaymentGateway
  /** Sends webhook callbacks (keep-alive agents, SSRF guard in production). */
  webhookTransport: Transport
}

// Bounds how long a change missed by every notification path could go unseen.
const AUTH_CACHE_MS = 5_000

export function createContext(config: Config, database: DatabaseHandle): AppContext {
  if (!config.appKey) throw new Error('APP_KEY is not set')
  const counters = config.redisUrl ? redisCounterStore(config.redisUrl) : memoryCounterStore()
  const perKey = config.rateLimitPerMinute === 0 ? undefined : rateLimiter(counters, 'ratelimit', config.rateLimitPerMinute)
  const authFailures = config.authFailuresPerMinute === 0 ? undefined : rateLimiter(counters, 'authfail', config.authFailuresPerMinute)
  const vault = createVault(config.appKey)
  const fulfilment = createFulfilment(database.db, vault, {
    providerPollSeconds: config.providerPollSeconds,
    providerTimeoutMs: config.providerTimeoutMs,
    dbStatementTimeoutMs: config.dbStatementTimeoutMs,
  })
  const dispatchers: LineDispatcher[] = fulfilment.lineDispatchers
  const webhookTransport = createTransport({ production: config.appEnv === 'production', timeoutMs: config.webhookTimeoutMs })
  return {
    config,
    db: database.db,
    database,
    vault,
    counters,
    rateLimiter: perKey,
    authFailures,
    authCache: createAuthCache(AUTH_CACHE_MS),
    catalog: createCatalogCache(database.db, toVariant),
    dispatchers,
    fulfilment,
    fulfillable: fulfillableProcesses(dispatchers),
    paymentGateway: createPaymentGateway(config),
    webhookTransport,
  }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.counters.close()
  ctx.webhookTransport.close()
  await ctx.database.close()
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
