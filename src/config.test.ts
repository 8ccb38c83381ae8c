import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'
import { resolveDevSecrets } from './dev-secrets.js'

/** The problems loadConfig reports for an environment (fails the test when it accepts it). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`)
}

describe('loadConfig', () => {
  it('has the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      databaseUrl: undefined,
      databaseReadUrls: [],
      readMaxLagMs: 5000,
      dataDir: './data',
      embeddedSharedBuffersMb: 16,
      appEnv: 'development',
      appKey: undefined,
      adminToken: undefined,
      seedDemo: undefined,
      paymentGateway: 'simulator',
      bankTransferHours: 24,
      complaintDays: 7,
      complaintSlaHours: 24,
      alertEvaluateSeconds: 30,
      alertFailurePercent: 20,
      smtpFrom: 'alerts@localhost',
      telegramApiUrl: 'https://api.telegram.org',
      supplierBalanceMinutes: 5,
      mootaWebhookSecret: undefined,
      maxActiveLocks: 10,
      leaderboardTz: 'Asia/Jakarta',
      consoleSessionHours: 12,
      role: 'all',
      redisUrl: undefined,
      rateLimitPerMinute: 600,
      trustProxy: undefined,
      providerPollSeconds: 60,
      providerTimeoutMs: 20000,
      supplierSyncMinutes: 15,
      supplierPriceJumpPercent: 50,
      retentionDays: 90,
      minMargin: 0,
      upstreamConcurrency: 512,
      upstreamPerHost: 256,
      validationSourceUrl: 'http://127.0.0.1:8080/sim/validation',
      webhookTimeoutMs: 10000,
      webhookUserAgent: 'ResellerOrderingService-Webhooks/1.0',
      dbPoolMax: 16,
      dbPipelines: 8,
      dbConnectTimeoutMs: 3000,
      dbStatementTimeoutMs: 5000,
      dbQueryTimeoutMs: 6000,
      dbIdleInTransactionTimeoutMs: 10000,
      databasePooler: 'none',
      databaseListenUrl: undefined,
      dbNamedStatements: true,
      authFailuresPerMinute: 20,
      httpConnectionTimeoutMs: 60000,
      httpRequestTimeoutMs: 30000,
      httpKeepAliveTimeoutMs: 72000,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      logLevel: 'info',
    })
  })

  it('converts strings and derives PUBLIC_URL from HOST and PORT', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      WORKERS: 'false',
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      RATE_LIMIT_PER_MINUTE: '0',
      MIN_MARGIN: '250',
    })
    expect(config).toMatchObject({
      minMargin: 250,
      port: 9090,
      host: '0.0.0.0',
      publicUrl: 'http://0.0.0.0:9090',
      role: 'api',
      seedDemo: false,
      rateLimitPerMinute: 0,
    })
    expect(config.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8'])
    // The metrics port listens where the API does unless told otherwise; the query timeout follows the statement timeout.
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9100', DB_STATEMENT_TIMEOUT_MS: '2000' })).toMatchObject({
      metricsPort: 9100,
      metricsHost: '0.0.0.0',
      dbStatementTimeoutMs: 2000,
      dbQueryTimeoutMs: 3000,
    })
    expect(loadConfig({ METRICS_HOST: '10.0.0.5', DB_QUERY_TIMEOUT_MS: '9000' })).toMatchObject({
      metricsHost: '10.0.0.5',
      dbQueryTimeoutMs: 9000,
    })
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://bouncer:6432/shop',
        DATABASE_POOLER: 'transaction',
        DATABASE_LISTEN_URL: 'postgres://db:5432/shop',
        DB_NAMED_STATEMENTS: 'false',
      }),
    ).toMatchObject({ databasePooler: 'transaction', databaseListenUrl: 'postgres://db:5432/shop', dbNamedStatements: false })
    expect(loadConfig({ WEBHOOK_USER_AGENT: 'SekalipayWebhook/1.0' }).webhookUserAgent).toBe('SekalipayWebhook/1.0')
    // Replicas: a comma-separated list, blanks ignored.
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/x', DATABASE_READ_URL: ' postgres://r1/x,, postgresql://r2/x ', READ_MAX_LAG_MS: '800' }),
    ).toMatchObject({ databaseReadUrls: ['postgres://r1/x', 'postgresql://r2/x'], readMaxLagMs: 800 })
    // A trailing slash would double up in payment links.
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example/' }).publicUrl).toBe('https://shop.example')
  })

  it.each([
    [{ PORT: 'abc' }, /^PORT: .*integer.*"abc"/],
    [{ PORT: '1.5' }, /^PORT: .*integer.*"1\.5"/],
    [{ PORT: '1e3' }, /^PORT: .*integer.*"1e3"/],
    [{ PORT: '70000' }, /^PORT: .*65535/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /^RATE_LIMIT_PER_MINUTE: .*0.*"-1"/],
    [{ TRUST_PROXY: 'nonsense' }, /^TRUST_PROXY: "nonsense" is not an IP address or CIDR$/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY: "10\.0\.0\.0\/33"/],
    [{ LEADERBOARD_TZ: 'Mars/Base' }, /^LEADERBOARD_TZ: unknown time zone "Mars\/Base"$/],
    [{ APP_ENV: 'prod' }, /^APP_ENV: expected one of development, production, test \(got "prod"\)$/],
    [{ WORKERS: 'maybe' }, /^WORKERS: expected one of true, false, only \(got "maybe"\)$/],
    [{ WORKERS: 'only' }, /^WORKERS: only needs DATABASE_URL/],
    [{ ROLE: 'web' }, /^ROLE: expected one of all, api, worker, migrate \(got "web"\)$/],
    [{ ROLE: 'worker' }, /^ROLE: worker needs DATABASE_URL/],
    [{ ROLE: 'api', WORKERS: 'true' }, /^ROLE: api contradicts WORKERS=true \(deprecated: WORKERS=true means ROLE=all\); unset WORKERS$/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [
      { DATABASE_URL: 'postgres://db/x', DATABASE_READ_URL: 'postgres://r1/x, mysql://u:secret@r2/x' },
      /^DATABASE_READ_URL: "mysql:\/\/u:…@r2\/x" is not a postgres:\/\/ URL$/,
    ],
    [{ DATABASE_READ_URL: 'postgres://r1/x' }, /^DATABASE_READ_URL: needs DATABASE_URL/],
    [{ READ_MAX_LAG_MS: '-1' }, /^READ_MAX_LAG_MS: .*0.*"-1"/],
    [{ DATABASE_POOLER: 'session' }, /^DATABASE_POOLER: expected one of none, transaction \(got "session"\)$/],
    [{ DATABASE_POOLER: 'transaction' }, /^DATABASE_POOLER: transaction needs DATABASE_URL/],
    [{ DATABASE_LISTEN_URL: 'postgres://db/x' }, /^DATABASE_LISTEN_URL: needs DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_LISTEN_URL: 'mysql://x' }, /^DATABASE_LISTEN_URL: /],
    [{ DB_NAMED_STATEMENTS: 'sometimes' }, /^DB_NAMED_STATEMENTS: /],
    [{ DB_STATEMENT_TIMEOUT_MS: '50' }, /^DB_STATEMENT_TIMEOUT_MS: .*100.*"50"/],
    [
      { DB_STATEMENT_TIMEOUT_MS: '8000', DB_QUERY_TIMEOUT_MS: '4000' },
      /^DB_QUERY_TIMEOUT_MS: must be longer than DB_STATEMENT_TIMEOUT_MS \(8000\)$/,
    ],
    [{ METRICS_PORT: 'metrics' }, /^METRICS_PORT: .*integer.*"metrics"/],
    [{ AUTH_FAILURES_PER_MINUTE: '-5' }, /^AUTH_FAILURES_PER_MINUTE: .*0.*"-5"/],
    [{ MIN_MARGIN: '-1' }, /^MIN_MARGIN: .*0.*"-1"/],
    [{ MIN_MARGIN: '1000000001' }, /^MIN_MARGIN: .*1000000000.*"1000000001"/],
    [{ MIN_MARGIN: '2.5' }, /^MIN_MARGIN: .*integer.*"2\.5"/],
    // A header cannot carry a line break.
    [{ WEBHOOK_USER_AGENT: 'Hook\r\nX-Evil: 1' }, /^WEBHOOK_USER_AGENT: /],
  ])('%j gives one line naming the variable', (env, line) => {
    const problems = problemsOf(env)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(line)
  })

  it('reports every bad value at once, one line each, in the error message too', () => {
    const problems = problemsOf({ PORT: 'abc', RATE_LIMIT_PER_MINUTE: '-1', LEADERBOARD_TZ: 'Mars/Base' })
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['LEADERBOARD_TZ', 'PORT', 'RATE_LIMIT_PER_MINUTE'])
    const message = new ConfigError(problems).message
    expect(message.split('\n')).toHaveLength(4)
  })

  it('refuses production without DATABASE_URL, APP_KEY, ADMIN_TOKEN and a real payment gateway', () => {
    expect(problemsOf({ APP_ENV: 'production' }).map((p) => p.split(':')[0])).toEqual([
      'DATABASE_URL',
      'APP_KEY',
      'ADMIN_TOKEN',
      'PAYMENT_GATEWAY',
    ])
    const tripay = { PAYMENT_GATEWAY: 'tripay', TRIPAY_API_KEY: 'a', TRIPAY_PRIVATE_KEY: 'p', TRIPAY_MERCHANT_CODE: 'T1' }
    expect(problemsOf({ APP_ENV: 'production', DATABASE_URL: 'postgres://db/x', APP_KEY: 'k'.repeat(32), ...tripay })).toEqual([
      'ADMIN_TOKEN: required in production',
    ])
    // The simulator's pay page is not served in production, so its links would be dead.
    expect(
      problemsOf({ APP_ENV: 'production', DATABASE_URL: 'postgres://db/x', APP_KEY: 'k'.repeat(32), ADMIN_TOKEN: 't'.repeat(16) })[0],
    ).toMatch(/^PAYMENT_GATEWAY: set tripay/)
    const ok = loadConfig({
      APP_ENV: 'production',
      DATABASE_URL: 'postgres://db/x',
      APP_KEY: 'k'.repeat(32),
      ADMIN_TOKEN: 't'.repeat(16),
      ...tripay,
    })
    expect(ok.appEnv).toBe('production')
    // No simulators in production: game ids validate only against a source the operator names.
    expect(ok.validationSourceUrl).toBeUndefined()
    expect(
      loadConfig({
        APP_ENV: 'production',
        DATABASE_URL: 'postgres://db/x',
        APP_KEY: 'k'.repeat(32),
        ADMIN_TOKEN: 't'.repeat(16),
        ...tripay,
        VALIDATION_SOURCE_URL: 'https://ids.example/v1/',
      }).validationSourceUrl,
    ).toBe('https://ids.example/v1')
  })

  it('maps the deprecated WORKERS onto ROLE, and lets a production migration job run without the keys', () => {
    const db = { DATABASE_URL: 'postgres://db/x' }
    expect(
      [loadConfig({}), loadConfig({ WORKERS: 'true' }), loadConfig({ WORKERS: 'false' }), loadConfig({ WORKERS: 'only', ...db })].map(
        (c) => c.role,
      ),
    ).toEqual(['all', 'all', 'api', 'worker'])
    expect(loadConfig({ ROLE: 'worker', WORKERS: 'only', ...db }).role).toBe('worker')
    expect(loadConfig({ ROLE: 'migrate', APP_ENV: 'production', ...db }).role).toBe('migrate')
    expect(problemsOf({ ROLE: 'worker', APP_ENV: 'production', ...db })).toEqual([
      'APP_KEY: required in production',
      'ADMIN_TOKEN: required in production',
    ])
  })

  it('answers a frozen object', () => {
    const config = loadConfig({})
    expect(Object.isFrozen(config)).toBe(true)
    expect(() => {
      ;(config as { port: number }).port = 1
    }).toThrow(TypeError)
    expect(config.port).toBe(8080)
  })
})

describe('dev secrets', () => {
  const dirs: string[] = []
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-secrets-'))
    dirs.push(dir)
    return dir
  }
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

  it('generates APP_KEY and ADMIN_TOKEN into DATA_DIR and reuses them on the next start', () => {
    const dataDir = path.join(tempDir(), 'nested')
    const first = resolveDevSecrets(loadConfig({ DATA_DIR: dataDir }))
    expect(first.config.appKey).toMatch(/^[\w-]{40,}$/)
    expect(first.config.adminToken).toMatch(/^[\w-]{30,}$/)
    expect(loadConfig({ APP_KEY: first.config.appKey!, ADMIN_TOKEN: first.config.adminToken! }).appKey).toBe(first.config.appKey)

    const file = path.join(dataDir, 'secrets.json')
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ appKey: first.config.appKey, adminToken: first.config.adminToken })
    // Only the owner may read the keys.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)

    first.save({ demoApiKey: 'rk_demo' })
    const second = resolveDevSecrets(loadConfig({ DATA_DIR: dataDir }))
    expect(second.config.appKey).toBe(first.config.appKey)
    expect(second.config.adminToken).toBe(first.config.adminToken)
    expect(second.secrets.demoApiKey).toBe('rk_demo')
    expect(Object.isFrozen(second.config)).toBe(true)
  })

  it('prefers values from the environment and does not store them', () => {
    const dataDir = tempDir()
    const store = resolveDevSecrets(loadConfig({ DATA_DIR: dataDir, APP_KEY: 'a'.repeat(32), ADMIN_TOKEN: 'b'.repeat(16) }))
    expect(store.config.appKey).toBe('a'.repeat(32))
    expect(store.config.adminToken).toBe('b'.repeat(16))
    expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(false)
  })

  it('keeps secrets in memory only for DATA_DIR=memory', () => {
    const cwd = process.cwd()
    process.chdir(tempDir())
    try {
      const first = resolveDevSecrets(loadConfig({ DATA_DIR: 'memory' }))
      first.save({ demoApiKey: 'rk_mem' })
      expect(first.config.appKey).toMatch(/^[\w-]{40,}$/)
      expect(first.secrets.demoApiKey).toBe('rk_mem')
      expect(fs.readdirSync('.')).toEqual([])
      // Nothing persisted: another start gets fresh keys.
      expect(resolveDevSecrets(loadConfig({ DATA_DIR: 'memory' })).config.appKey).not.toBe(first.config.appKey)
    } finally {
      process.chdir(cwd)
    }
  })
})
