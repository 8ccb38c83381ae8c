import { loadConfig } from '../config.js'
import { openService } from '../service.js'
import { buildApp } from '../http/server.js'

/**
 * Prints the OpenAPI document without listening or touching ./data: an app on a throw-away embedded
 * database, with fixed settings so the document (and the client generated from it) is the same on every machine.
 */
async function dump(): Promise<void> {
  const config = loadConfig({
    APP_ENV: 'development',
    DATA_DIR: 'memory',
    APP_KEY: 'openapi-dump-key-0123456789-0123456789-abcdef',
    ADMIN_TOKEN: 'openapi-dump-token-0123456789',
    LOG_LEVEL: 'silent',
    WORKERS: 'false',
    SEED_DEMO: 'false',
  })
  const service = await openService(config)
  const app = await buildApp(service.ctx)
  await app.ready()
  process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`)
  await app.close()
  await service.close()
}

dump().catch((error) => {
  console.error(`openapi: ${(error as Error).message}`)
  process.exit(1)
})
