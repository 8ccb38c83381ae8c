import fs from 'node:fs'
import { loadConfig, type Config } from '../config.js'
import { dataDirHolder } from '../db/database.js'
import { resolveDevSecrets } from '../dev-secrets.js'
import { buildApp } from '../http/server.js'
import { openService } from '../service.js'
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
  const service = await openService(config)
  try {
    const app = await buildApp(service.ctx)
    const res = await app.inject({
      method: call.method as 'GET',
      url: call.url,
      headers: { authorization: `Bearer ${config.adminToken}` },
      payload: call.body,
    })
    await app.close()
    return { status: res.statusCode, body: res.json() }
  } finally {
    await service.close()
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
