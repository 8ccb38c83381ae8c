import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { isAddressOrCidr } from './ip-ranges.js'
import { StringEnum } from './string-enum.js'

/** The webhook User-Agent unless WEBHOOK_USER_AGENT names another (receivers written for SekaliPay may expect its own). */
export const DEFAULT_WEBHOOK_USER_AGENT = 'ResellerOrderingService-Webhooks/1.0'

/** Pipelined connections per process (DB_PIPELINES); the test helpers open as many as production does. */
export const DEFAULT_DB_PIPELINES = 8
/** The embedded database's shared buffers (EMBEDDED_SHARED_BUFFERS_MB); the bench's PGlite loop runs with the same. */
export const DEFAULT_EMBEDDED_SHARED_BUFFERS_MB = 16

// The environment as it arrives; every value is a string until converted and checked here.
const Env = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  // Read replicas for reads that tolerate seconds of lag (docs/operating.md#read-replicas), comma-separated.
  DATABASE_READ_URL: Type.Optional(Type.String({ minLength: 1 })),
  READ_MAX_LAG_MS: Type.Integer({ minimum: 0, maximum: 3600000, default: 5000 }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  // PGlite zero-fills its shared buffers at start: they are most of an embedded service's idle memory.
  EMBEDDED_SHARED_BUFFERS_MB: Type.Integer({ minimum: 1, maximum: 1024, default: DEFAULT_EMBEDDED_SHARED_BUFFERS_MB }),
  APP_ENV: StringEnum(['development', 'production', 'test'], { default: 'development' }),
  APP_KEY: Type.Optional(Type.String({ minLength: 32 })),
  ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  SEED_DEMO: Type.Optional(Type.Boolean()),
  PAYMENT_GATEWAY: StringEnum(['simulator', 'tripay'], { default: 'simulator' }),
  TRIPAY_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://tripay.co.id/api' }),
  TRIPAY_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TRIPAY_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TRIPAY_MERCHANT_CODE: Type.Optional(Type.String({ minLength: 1 })),
  // Bank transfers (docs/design.md §7b): how long a transfer top-up waits, and the secret Moota signs its pushes with.
  BANK_TRANSFER_HOURS: Type.Number({ exclusiveMinimum: 0, maximum: 720, default: 24 }),
  // docs/design.md §14: days after an order a line takes a complaint (0 closes the window); hours an operator has to answer one.
  COMPLAINT_DAYS: Type.Integer({ minimum: 0, maximum: 365, default: 7 }),
  COMPLAINT_SLA_HOURS: Type.Number({ exclusiveMinimum: 0, maximum: 720, default: 24 }),
  MOOTA_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 8 })),
  MAX_ACTIVE_LOCKS: Type.Integer({ minimum: 0, maximum: 10000, default: 10 }),
  LEADERBOARD_TZ: Type.String({ minLength: 1, default: 'Asia/Jakarta' }),
  CONSOLE_SESSION_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 12 }),
  ROLE: Type.Optional(StringEnum(['all', 'api', 'worker', 'migrate'])),
  // Deprecated: ROLE says it (true → all, false → api, only → worker); kept for existing setups.
  WORKERS: Type.Optional(StringEnum(['true', 'false', 'only'])),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 600 }),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  PROVIDER_POLL_SECONDS: Type.Integer({ minimum: 1, default: 60 }),
  PROVIDER_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 300000, default: 20000 }),
  // Suppliers' price lists are rate-limited upstream: read (and cached) at most this often (docs/design.md §11b).
  SUPPLIER_SYNC_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 15 }),
  // docs/design.md §11e: how often each provider's balance is read (fractions for tests: 0.25 is 15 s).
  SUPPLIER_BALANCE_MINUTES: Type.Number({ minimum: 0.05, maximum: 1440, default: 5 }),
  // Operator alerts (docs/design.md §11e): how often conditions are read, a provider's failure rate that fires, and the channels' transports.
  ALERT_EVALUATE_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 30 }),
  ALERT_FAILURE_PERCENT: Type.Number({ minimum: 0, maximum: 100, default: 20 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_FROM: Type.String({ minLength: 3, default: 'alerts@localhost' }),
  TELEGRAM_BOT_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  TELEGRAM_API_URL: Type.String({ pattern: '^https?://', default: 'https://api.telegram.org' }),
  // A listed price that moved more than this from the last applied one is held for the operator (docs/design.md §11c).
  SUPPLIER_PRICE_JUMP_PERCENT: Type.Integer({ minimum: 1, maximum: 100000, default: 50 }),
  // Logs kept this long: webhook deliveries (with their payloads) and suppliers' change logs; the ledger and orders are kept forever.
  RETENTION_DAYS: Type.Integer({ minimum: 7, maximum: 3650, default: 90 }),
  // The floor (docs/design.md §11c): the least margin over a source's cost an item sells at when no pricing rule sets one.
  MIN_MARGIN: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
  UPSTREAM_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 10000, default: 512 }),
  UPSTREAM_PER_HOST: Type.Integer({ minimum: 1, maximum: 10000, default: 256 }),
  VALIDATION_SOURCE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
  // Printable ASCII only: anything else cannot travel in a header.
  WEBHOOK_USER_AGENT: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x20-\\x7E]+$', default: DEFAULT_WEBHOOK_USER_AGENT }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 16, default: 16 }),
  DB_PIPELINES: Type.Integer({ minimum: 0, maximum: 16, default: DEFAULT_DB_PIPELINES }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 3000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3600000, default: 5000 }),
  DB_QUERY_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 3600000 })),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3600000, default: 10000 }),
  // docs/operating.md#pgbouncer: `transaction` when DATABASE_URL is a pooler in transaction mode (no session state lasts past a transaction).
  DATABASE_POOLER: StringEnum(['none', 'transaction'], { default: 'none' }),
  // A direct connection for LISTEN (a transaction pooler cannot carry it); unset behind one, the workers and caches poll.
  DATABASE_LISTEN_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  // false: unnamed statements only, parsed and planned on every call (poolers without prepared-statement support).
  DB_NAMED_STATEMENTS: Type.Boolean({ default: true }),
  AUTH_FAILURES_PER_MINUTE: Type.Integer({ minimum: 0, default: 20 }),
  HTTP_CONNECTION_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3600000, default: 60000 }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3600000, default: 30000 }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1, maximum: 3600000, default: 72000 }),
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
})
type Env = Static<typeof Env>

// DB_POOL_MAX → dbPoolMax: the config keeps the environment's names, camel-cased.
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Lowercase<Head>}${Capitalize<Camel<Tail>>}` : Lowercase<S>
type CamelKeys<T> = { [K in keyof T as K extends string ? Camel<K> : never]: T[K] }

/** Values loadConfig derives or reshapes rather than copying from the environment. */
type Derived = {
  /** PUBLIC_URL, else http://HOST:PORT; no trailing slash. */
  publicUrl: string
  /** Set (all of it) when paymentGateway is tripay. */
  tripay: { baseUrl: string; apiKey: string; privateKey: string; merchantCode: string } | undefined
  /** DATABASE_READ_URL split: the replicas' URLs (none: every read goes to DATABASE_URL). */
  databaseReadUrls: string[]
  /** What this process runs: `all` (API and workers), `api`, `worker` (scale-out) or `migrate` (then exits). */
  role: Role
  trustProxy: string[] | undefined
  /** Where game-account ids are checked (docs/design.md §5b); the simulator outside production unless set. */
  validationSourceUrl: string | undefined
  dbQueryTimeoutMs: number
  metricsHost: string
}

type Copied = Omit<CamelKeys<Env>, keyof Derived | 'workers' | `tripay${string}`>

/** The configuration: the Env schema's values, camel-cased (optional where the variable is), plus the derived ones. */
export type Config = Readonly<Copied & Derived>

export type Role = 'all' | 'api' | 'worker' | 'migrate'
const ROLE_OF_WORKERS: Record<string, Role> = { true: 'all', false: 'api', only: 'worker' }

/** Whether a role serves HTTP, and whether it runs the background workers. */
export const servesApi = (role: Role) => role === 'all' || role === 'api'
export const runsWorkers = (role: Role) => role === 'all' || role === 'worker'

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`)
  }
}

/** Reads, converts and validates the environment; one line per bad value. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {}
  const problems: string[] = []
  for (const [key, schema] of Object.entries(Env.properties) as [string, TSchema][]) {
    const value = source[key]
    if (value === undefined || value === '') continue
    // Value.Convert would truncate "1.5", "1e3" or "0x10" to some integer: only plain digits are one.
    if (schema.type === 'integer' && !/^\s*[+-]?\d+\s*$/.test(value))
      problems.push(`${key}: Expected integer (got ${JSON.stringify(value)})`)
    else raw[key] = value
  }
  const converted = Value.Default(Env, Value.Convert(Env, raw)) as Record<string, unknown>
  for (const e of Value.Errors(Env, converted)) {
    const name = e.path.slice(1)
    problems.push(`${name}: ${e.message} (got ${JSON.stringify(source[name] ?? null)})`)
  }
  // StringEnum is a string to TypeBox's Value functions: the choices are checked here.
  for (const [key, schema] of Object.entries(Env.properties) as [string, TSchema & { enum?: string[] }][]) {
    const value = converted[key]
    if (schema.enum && typeof value === 'string' && !schema.enum.includes(value))
      problems.push(`${key}: expected one of ${schema.enum.join(', ')} (got ${JSON.stringify(source[key] ?? null)})`)
  }
  const env = converted as Env
  if (env.TRUST_PROXY) {
    for (const cidr of env.TRUST_PROXY.split(','))
      if (!isAddressOrCidr(cidr.trim())) problems.push(`TRUST_PROXY: "${cidr.trim()}" is not an IP address or CIDR`)
  }
  if (!isTimeZone(env.LEADERBOARD_TZ)) problems.push(`LEADERBOARD_TZ: unknown time zone "${env.LEADERBOARD_TZ}"`)
  // The client-side limit backs up the server's for a database that stopped answering; shorter, it would cut queries the server still runs.
  const queryTimeoutMs = env.DB_QUERY_TIMEOUT_MS ?? env.DB_STATEMENT_TIMEOUT_MS + 1000
  if (queryTimeoutMs <= env.DB_STATEMENT_TIMEOUT_MS)
    problems.push(`DB_QUERY_TIMEOUT_MS: must be longer than DB_STATEMENT_TIMEOUT_MS (${env.DB_STATEMENT_TIMEOUT_MS})`)
  const aliased = env.WORKERS === undefined ? undefined : ROLE_OF_WORKERS[env.WORKERS]
  const role: Role = env.ROLE ?? aliased ?? 'all'
  if (env.ROLE && aliased && env.ROLE !== aliased)
    problems.push(
      `ROLE: ${env.ROLE} contradicts WORKERS=${env.WORKERS} (deprecated: WORKERS=${env.WORKERS} means ROLE=${aliased}); unset WORKERS`,
    )
  else if (role === 'worker' && !env.DATABASE_URL)
    problems.push(`${env.ROLE ? 'ROLE: worker' : 'WORKERS: only'} needs DATABASE_URL (the embedded database belongs to one process)`)
  const databaseReadUrls = (env.DATABASE_READ_URL ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
  for (const url of databaseReadUrls)
    if (!/^postgres(ql)?:\/\//.test(url)) problems.push(`DATABASE_READ_URL: "${redactedUrl(url)}" is not a postgres:// URL`)
  if (databaseReadUrls.length > 0 && !env.DATABASE_URL)
    problems.push('DATABASE_READ_URL: needs DATABASE_URL (replicas of the embedded database do not exist)')
  if (!env.DATABASE_URL) {
    if (env.DATABASE_POOLER === 'transaction')
      problems.push(`DATABASE_POOLER: ${env.DATABASE_POOLER} needs DATABASE_URL (the embedded database has no pooler)`)
    if (env.DATABASE_LISTEN_URL) problems.push('DATABASE_LISTEN_URL: needs DATABASE_URL (the embedded database has no pooler)')
  }
  if (env.APP_ENV === 'production') {
    if (!env.DATABASE_URL) problems.push('DATABASE_URL: required in production (embedded PGlite does not fsync)')
    // A migration job needs the database only: the keys stay with the processes that use them.
    if (!env.APP_KEY && role !== 'migrate') problems.push('APP_KEY: required in production')
    if (!env.ADMIN_TOKEN && role !== 'migrate') problems.push('ADMIN_TOKEN: required in production')
    // The simulator's pay page is not served in production: its payment links would not open.
    if (env.PAYMENT_GATEWAY !== 'tripay' && servesApi(role))
      problems.push(
        'PAYMENT_GATEWAY: set tripay (with TRIPAY_API_KEY, TRIPAY_PRIVATE_KEY, TRIPAY_MERCHANT_CODE); the simulator is for development and tests',
      )
  }
  if (env.PAYMENT_GATEWAY === 'tripay') {
    for (const key of ['TRIPAY_API_KEY', 'TRIPAY_PRIVATE_KEY', 'TRIPAY_MERCHANT_CODE'] as const)
      if (!env[key]) problems.push(`${key}: required when PAYMENT_GATEWAY=tripay`)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  const publicUrl = (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, '')
  return Object.freeze({
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    adminUrl: env.ADMIN_URL?.replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL,
    databaseReadUrls,
    readMaxLagMs: env.READ_MAX_LAG_MS,
    dataDir: env.DATA_DIR,
    embeddedSharedBuffersMb: env.EMBEDDED_SHARED_BUFFERS_MB,
    appEnv: env.APP_ENV,
    appKey: env.APP_KEY,
    adminToken: env.ADMIN_TOKEN,
    seedDemo: env.SEED_DEMO,
    paymentGateway: env.PAYMENT_GATEWAY,
    tripay:
      env.PAYMENT_GATEWAY === 'tripay'
        ? {
            baseUrl: env.TRIPAY_BASE_URL.replace(/\/+$/, ''),
            apiKey: env.TRIPAY_API_KEY!,
            privateKey: env.TRIPAY_PRIVATE_KEY!,
            merchantCode: env.TRIPAY_MERCHANT_CODE!,
          }
        : undefined,
    bankTransferHours: env.BANK_TRANSFER_HOURS,
    mootaWebhookSecret: env.MOOTA_WEBHOOK_SECRET,
    complaintDays: env.COMPLAINT_DAYS,
    complaintSlaHours: env.COMPLAINT_SLA_HOURS,
    maxActiveLocks: env.MAX_ACTIVE_LOCKS,
    leaderboardTz: env.LEADERBOARD_TZ,
    consoleSessionHours: env.CONSOLE_SESSION_HOURS,
    role,
    redisUrl: env.REDIS_URL,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    trustProxy: env.TRUST_PROXY?.split(',').map((s) => s.trim()),
    providerPollSeconds: env.PROVIDER_POLL_SECONDS,
    providerTimeoutMs: env.PROVIDER_TIMEOUT_MS,
    supplierSyncMinutes: env.SUPPLIER_SYNC_MINUTES,
    supplierBalanceMinutes: env.SUPPLIER_BALANCE_MINUTES,
    supplierPriceJumpPercent: env.SUPPLIER_PRICE_JUMP_PERCENT,
    alertEvaluateSeconds: env.ALERT_EVALUATE_SECONDS,
    alertFailurePercent: env.ALERT_FAILURE_PERCENT,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM,
    telegramBotToken: env.TELEGRAM_BOT_TOKEN,
    telegramApiUrl: env.TELEGRAM_API_URL.replace(/\/+$/, ''),
    retentionDays: env.RETENTION_DAYS,
    minMargin: env.MIN_MARGIN,
    upstreamConcurrency: env.UPSTREAM_CONCURRENCY,
    upstreamPerHost: env.UPSTREAM_PER_HOST,
    validationSourceUrl: (env.VALIDATION_SOURCE_URL ?? (env.APP_ENV === 'production' ? undefined : `${publicUrl}/sim/validation`))?.replace(
      /\/+$/,
      '',
    ),
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookUserAgent: env.WEBHOOK_USER_AGENT,
    dbPoolMax: env.DB_POOL_MAX,
    dbPipelines: env.DB_PIPELINES,
    dbConnectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    dbQueryTimeoutMs: queryTimeoutMs,
    dbIdleInTransactionTimeoutMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    databasePooler: env.DATABASE_POOLER,
    databaseListenUrl: env.DATABASE_LISTEN_URL,
    dbNamedStatements: env.DB_NAMED_STATEMENTS,
    authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
    httpConnectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
    httpRequestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    httpKeepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST ?? env.HOST,
    logLevel: env.LOG_LEVEL,
  })
}

/** A copy of the config with some values replaced (resolved secrets, test overrides). */
export function withConfig(config: Config, changes: Partial<Config>): Config {
  return Object.freeze({ ...config, ...changes })
}

/** A URL as a problem line may show it: without its password. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@')
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
