import { afterAll, expect, onTestFinished } from 'vitest'
import { DEFAULT_DB_PIPELINES, loadConfig, withConfig, type Config } from '../src/config.js'
import type { AppContext } from '../src/context.js'
import { buildApp, type App } from '../src/http/server.js'
import { openPostgres, type DatabaseHandle } from '../src/db/database.js'
import { openService, type ServiceOverrides } from '../src/service.js'
import { cloneTestDatabase } from './database.js'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'
export const APP_KEY = 'test-app-key-0123456789-0123456789-abcdef'

export type TestApp = { app: App; ctx: AppContext; databaseUrl?: string; close(): Promise<void> }

function testConfig(env: Record<string, string>): Config {
  return loadConfig({
    APP_ENV: 'test',
    DATA_DIR: 'memory',
    APP_KEY,
    ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    WORKERS: 'false',
    ...env,
  })
}

/**
 * The real HTTP app on a database of its own; closed after the file's tests. `changes` replace
 * config values the environment cannot set here (APP_ENV=production needs DATABASE_URL);
 * `overrides` swap the clock, fetch, dispatchers, the payment gateway or the webhook transport.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  changes: Partial<Config> = {},
  overrides: Omit<ServiceOverrides, 'database'> = {},
): Promise<TestApp> {
  return appOn(await cloneTestDatabase(), env, changes, overrides)
}

/** A second process's view: another app with its own pool (`pool` connections and `pipelines`) on the same PostgreSQL database. */
export async function createSiblingApp(
  databaseUrl: string,
  env: Record<string, string> = {},
  changes: Partial<Config> = {},
  { pool = 4, pipelines = DEFAULT_DB_PIPELINES } = {},
): Promise<TestApp> {
  const handle = await openPostgres(databaseUrl, pool, { pipelines })
  return appOn({ ...handle, url: databaseUrl }, env, changes)
}

async function appOn(
  database: DatabaseHandle & { url?: string },
  env: Record<string, string>,
  changes: Partial<Config> = {},
  overrides: Omit<ServiceOverrides, 'database'> = {},
): Promise<TestApp> {
  const service = await openService(withConfig(testConfig(env), changes), { ...overrides, database })
  const { ctx } = service
  const app = await buildApp(ctx)
  await app.ready()
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    // A test that listened (a browser, a worker process) may leave keep-alive sockets open: close waits on none.
    app.server.closeAllConnections()
    await app.close()
    await service.close()
  }
  // An app made inside a test is closed (and its database dropped) when that test ends; afterAll there would never run.
  if (expect.getState().currentTestName) onTestFinished(close)
  else afterAll(close)
  return { app, ctx, databaseUrl: database.url, close }
}
