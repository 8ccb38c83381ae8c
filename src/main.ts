import net from 'node:net'
import { ConfigError, loadConfig, runsWorkers, servesApi } from './config.js'
import { recordServiceUrl } from './db/data-dir.js'
import { resolveDevSecrets, type DevSecretStore } from './dev-secrets.js'
import { metricsServer } from './http/metrics.js'
import { buildApp } from './http/server.js'
import { watchAccountChanges } from './modules/accounts/index.js'
import { watchCatalogChanges } from './modules/catalog/index.js'
import { seedDemo } from './modules/admin/index.js'
import { migrateDatabase, openService } from './service.js'
import { allWorkers, startUpstreamWorker } from './workers/index.js'
import { startWorkers } from './workers/runner.js'
import { createWebhookWorker } from './modules/webhooks/index.js'

/** A refusal to start that already says how to fix it. */
class StartError extends Error {}

/** Refuses at once when the port is taken, rather than after a first start's minute of migrating. */
async function refuseTakenPort(host: string, port: number): Promise<void> {
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new StartError(portTaken(host, port)) : error),
    )
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

const portTaken = (host: string, port: number) =>
  `failed to start: ${host}:${port} is already in use (another copy of the service?); stop it, or set PORT to a free port (PORT=8081 npm start)`

// In-flight requests and attempts get this long to finish after SIGTERM/SIGINT.
const SHUTDOWN_DEADLINE_MS = 15_000

/**
 * Stops accepting and waits for the requests in flight. A keep-alive socket is closed once its
 * request is answered (Fastify closes only those idle when close begins: a client's pooled socket
 * kept an answered process alive until the deadline); a request racing in gets 503, Connection: close.
 */
async function drainHttp(app: { close(): Promise<unknown>; server: { closeIdleConnections(): void } }): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100)
  try {
    await app.close()
  } finally {
    clearInterval(sweep)
  }
}

const startedAt = Date.now()
/** A line per step of the start with the seconds since it began, so a first start never looks hung. */
const progress = (step: string) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${step}`)

async function main() {
  let config = loadConfig()
  if (config.role === 'migrate') {
    // A deploy step before the new processes start; they migrate too, under the same advisory locks.
    await migrateDatabase(config, progress)
    progress('migrated: exiting (ROLE=migrate)')
    process.exit(0)
  }
  // A token the operator set is theirs to know; only a generated one is printed.
  const printAdminToken = !config.adminToken
  let secrets: DevSecretStore | undefined
  if (config.appEnv !== 'production') {
    secrets = resolveDevSecrets(config)
    config = secrets.config
  }
  // ROLE=api serves HTTP and leaves the background work to ROLE=worker processes on the same PostgreSQL.
  const serveApi = servesApi(config.role)
  const background = runsWorkers(config.role)
  if (serveApi) await refuseTakenPort(config.host, config.port)
  const service = await openService(config, {}, progress)
  const { ctx } = service
  // Only on an empty database, once however many processes start together.
  const seeding = serveApi && (config.seedDemo ?? config.appEnv === 'development')
  if (seeding) progress('demo data (only into an empty database)')
  const demo = seeding ? await seedDemo(ctx) : undefined
  if (demo) secrets?.save({ demoApiKey: demo.apiKey })

  const app = await buildApp(ctx)
  if (serveApi) progress(`opening the port ${config.host}:${config.port}`)
  if (serveApi)
    await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new StartError(portTaken(config.host, config.port)) : error
    })
  if (serveApi && !config.databaseUrl && config.dataDir !== 'memory') recordServiceUrl(config.dataDir, config.publicUrl)
  const metrics = config.metricsPort === undefined ? undefined : metricsServer(app.metricsRegistry)
  await metrics?.listen({ port: config.metricsPort, host: config.metricsHost })
  const workers = background ? startWorkers(allWorkers(ctx), service.log) : undefined
  const webhooks = background ? await createWebhookWorker(ctx).start(service.log) : undefined
  const upstream = background ? await startUpstreamWorker(ctx, service.log) : undefined
  const stopWatching = serveApi ? await watchAccountChanges(ctx) : async () => {}
  const stopWatchingCatalog = serveApi ? await watchCatalogChanges(ctx) : async () => {}
  const banner = [
    `Reseller Ordering Service listening on ${config.publicUrl}`,
    `  API base:     ${config.publicUrl}/api/v1`,
    `  docs:         ${config.publicUrl}/api/docs`,
    `  console:      ${config.publicUrl}/console (sign in with the admin token)`,
    `  database:     ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`}`,
    ...(config.databaseReadUrls.length > 0 ? [`  replicas:     ${config.databaseReadUrls.length} (DATABASE_READ_URL)`] : []),
  ]
  if (!background) banner.push('  role:         api (no background workers: run ROLE=worker processes beside it)')
  if (metrics) banner.push(`  metrics:      http://${config.metricsHost}:${config.metricsPort}/metrics`)
  // The key kept in DATA_DIR is dead once rotated: printing it would send a person to a 401.
  const demoKey = secrets?.secrets.demoApiKey
  if (demoKey && serveApi) {
    const res = await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': demoKey } })
    banner.push(
      res.statusCode === 200 ? `  demo API key: ${demoKey}` : '  demo API key: rotated (the one kept in DATA_DIR no longer opens the API)',
    )
  }
  if (secrets && printAdminToken) banner.push(`  admin token:  ${config.adminToken}`)
  console.log(serveApi ? banner.join('\n') : 'Reseller Ordering Service workers running (ROLE=worker: no API), database: PostgreSQL')

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`stopping on ${signal}: no new connections or claims; finishing requests in flight, handing back claimed work`)
    // A step that never ends (a peer that keeps its connection, a lost database) must not keep the
    // process alive: bench runs found API processes still up a quarter of an hour after SIGTERM.
    setTimeout(() => {
      app.log.error({ signal }, `still shutting down after ${SHUTDOWN_DEADLINE_MS} ms: exiting`)
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    // The API drains its requests while the workers hand back their claims: one deadline for both. A
    // worker-only process never made its app ready: closing it would compile every route's schema (1.7 s of CPU).
    const http = serveApi ? drainHttp(app) : undefined
    await Promise.all([http, metrics?.close(), workers?.stop(), webhooks?.stop(), upstream?.stop()])
    await stopWatching()
    await stopWatchingCatalog()
    await service.close()
    console.log('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError || error instanceof StartError ? error.message : `failed to start: ${(error as Error).message}`,
  )
  process.exit(1)
})
