import fs from 'node:fs'
import path from 'node:path'
import { loadConfig, type Config } from '../config.js'
import { checkAppKey, closeContext, createContext } from '../context.js'
import { acquireDataDirLock, dataDirHolder, openPGlite, openPostgres } from '../db/database.js'
import { migrateToLatest } from '../db/migrate.js'
import { resolveDevSecrets } from '../dev-secrets.js'
import { buildApp } from '../http/server.js'
import { recordLeaderboardZone } from '../modules/leaderboard/leaderboard.queries.js'
import { COMMANDS, parseArgs } from './commands.js'

type Call = { method: string; url: string; body?: object }
type Answer = { status: number; body: unknown }

/** A running service owns embedded PGlite: talk to it over HTTP. */
async function overHttp(config: Config, call: Call): Promise<Answer> {
  const res = await fetch(`${config.publicUrl}${call.url}`, {
    method: call.method,
    headers: { authorization: `Bearer ${config.adminToken}`, ...(call.body && { 'content-type': 'application/json' }) },
    body: call.body ? JSON.stringify(call.body) : undefined,
  })
  return { status: res.status, body: await res.json() }
}

/** Nobody holds the database: open it here and run the same routes in-process. */
async function inProcess(config: Config, call: Call): Promise<Answer> {
  const embedded = !config.databaseUrl
  const release = embedded && config.dataDir !== 'memory' ? acquireDataDirLock(config.dataDir) : () => {}
  const database = embedded
    ? await openPGlite({ dataDir: path.join(config.dataDir, 'pglite') })
    : await openPostgres(config.databaseUrl!, 2)
  try {
    await migrateToLatest(database.db)
    const ctx = createContext(config, database)
    await checkAppKey(ctx.db, ctx.vault)
    await recordLeaderboardZone(ctx.db, config.leaderboardTz)
    const app = await buildApp(ctx)
    const res = await app.inject({
      method: call.method as 'GET',
      url: call.url,
      headers: { authorization: `Bearer ${config.adminToken}` },
      payload: call.body,
    })
    await app.close()
    await closeContext(ctx)
    return { status: res.statusCode, body: res.json() }
  } finally {
    release()
  }
}

function help(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.usage}`)
  return `usage: npm run admin -- <command> [args]\n\n${lines.join('\n')}`
}

async function main() {
  const { name, args, flags } = parseArgs(process.argv.slice(2))
  const command = COMMANDS[name]
  if (!command) {
    console.log(help())
    process.exit(name === 'help' ? 0 : 2)
  }
  if (name === 'licenses:add' && typeof flags.file === 'string')
    args.push(
      ...fs
        .readFileSync(flags.file, 'utf8')
        .split('\n')
        .filter((l) => l.trim()),
    )
  let config = loadConfig()
  if (config.appEnv !== 'production') config = resolveDevSecrets(config).config
  const query =
    command.method === 'GET'
      ? new URLSearchParams(Object.entries(flags).map(([k, v]) => [k.replaceAll('-', '_'), String(v)])).toString()
      : ''
  const call: Call = {
    method: command.method,
    url: `/api/admin/v1${command.path(args)}${query ? `?${query}` : ''}`,
    body: command.body?.(flags, args),
  }
  const useHttp = !config.databaseUrl && config.dataDir !== 'memory' && dataDirHolder(config.dataDir) !== undefined
  const answer = useHttp ? await overHttp(config, call) : await inProcess(config, call)
  console.log(JSON.stringify(answer.body, null, 2))
  process.exit(answer.status >= 400 ? 1 : 0)
}

main().catch((error) => {
  console.error(`admin: ${(error as Error).message}`)
  process.exit(1)
})
