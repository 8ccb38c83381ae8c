import { sql } from 'kysely'
import type { Config } from './config.js'
import type { Database, DatabaseHandle } from './db/database.js'
import { createAuthCache, type AuthCache } from './modules/accounts/auth-cache.js'
import { fulfillableProcesses, type LineDispatcher } from './modules/fulfilment/dispatch.js'
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './http/rate-limit.js'
import { createTransport, type Transport } from './modules/webhooks/transport.js'
import { createVault, type Vault } from './vault.js'

/** Everything a request or a worker needs, wired by hand in one place. */
export type AppContext = {
  config: Config
  db: Database
  database: DatabaseHandle
  vault: Vault
  rateLimiter?: RateLimiter
  authCache: AuthCache
  dispatchers: LineDispatcher[]
  /** The order processes a purchase accepts now (auto, manual, and those with a dispatcher). */
  fulfillable: string[]
  /** Sends webhook callbacks (keep-alive agents, SSRF guard in production). */
  webhookTransport: Transport
}

// Bounds how long a change missed by every notification path could go unseen.
const AUTH_CACHE_MS = 5_000

export function createContext(config: Config, database: DatabaseHandle): AppContext {
  if (!config.appKey) throw new Error('APP_KEY is not set')
  const limit = config.rateLimitPerMinute
  const rateLimiter = limit === 0 ? undefined : config.redisUrl ? redisRateLimiter(config.redisUrl, limit) : memoryRateLimiter(limit)
  const dispatchers: LineDispatcher[] = []
  const webhookTransport = createTransport({ production: config.appEnv === 'production', timeoutMs: config.webhookTimeoutMs })
  return { config, db: database.db, database, vault: createVault(config.appKey), rateLimiter, authCache: createAuthCache(AUTH_CACHE_MS), dispatchers, fulfillable: fulfillableProcesses(dispatchers), webhookTransport }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.rateLimiter?.close()
  ctx.webhookTransport.close()
  await ctx.database.close()
}

/** The database remembers which APP_KEY encrypted it; another key would make its secrets unreadable. */
export async function checkAppKey(db: Database, vault: Vault): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('app_key_fingerprint', ${vault.keyFingerprint}) ON CONFLICT (key) DO NOTHING`.execute(db)
  const row = await db.selectFrom('app_meta').select('value').where('key', '=', 'app_key_fingerprint').executeTakeFirstOrThrow()
  if (row.value !== vault.keyFingerprint) {
    throw new Error('APP_KEY differs from the key this database was created with; refusing to start (restore the original APP_KEY)')
  }
}
