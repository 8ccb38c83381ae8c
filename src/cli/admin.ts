import fs from 'node:fs'
import { loadConfig, withConfig, type Config } from '../config.js'
import { dataDirHolder, runningServiceUrl } from '../db/data-dir.js'
import { resolveDevSecrets } from '../dev-secrets.js'
import { COMMANDS, exampleOf, parseArgs, queryOf } from './commands.js'
import { isCsv, type Answer, type Call } from './in-process.js'
import { printAndExit, render } from './output.js'

/** A running service (found by --url, ADMIN_URL, or the URL its embedded database's lock records): talk to it over HTTP. */
async function overHttp(base: string, call: Call, bearer: string): Promise<Answer> {
  const url = `${base}${call.url}`
  let res: Response
  try {
    res = await fetch(url, {
      method: call.method,
      headers: { authorization: `Bearer ${bearer}`, ...(call.body && { 'content-type': 'application/json' }) },
      body: call.body ? JSON.stringify(call.body) : undefined,
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new Error(
      `cannot reach the service at ${base} (${cause?.code ?? cause?.message ?? (error as Error).message}); is it running? (--url or ADMIN_URL to point elsewhere)`,
    )
  }
  const text = await res.text()
  if (res.ok && isCsv(res.headers.get('content-type'))) return { status: res.status, body: undefined, csv: text }
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    throw new Error(`${url} answered ${res.status} with something other than JSON: is that the service?`)
  }
}

/** Nobody holds the database: open it here and run the same routes in-process. */
async function inProcess(config: Config, call: Call, bearer: string): Promise<Answer> {
  // Loaded only here: a call over HTTP starts in a fraction of the time without the whole service.
  const [{ openService }, { callInProcess }] = await Promise.all([import('../service.js'), import('./in-process.js')])
  const service = await openService(config)
  try {
    return await callInProcess(service.ctx, call, bearer)
  } finally {
    await service.close()
  }
}

/**
 * Whether the demo key still opens the reseller API: after a rotation the key kept in DATA_DIR is dead,
 * and printing it would send a person to a 401. Asked of the running service, else of the database in process.
 */
async function demoKeyIsLive(config: Config, url: string, running: boolean, apiKey: string): Promise<boolean> {
  const headers = { 'x-apikey': apiKey }
  if (running) return (await fetch(`${url}/api/v1/balance`, { headers })).status === 200
  // Held by a service this CLI cannot reach: unchecked, printed as before.
  if (!config.databaseUrl && config.dataDir !== 'memory' && dataDirHolder(config.dataDir) !== undefined) return true
  const [{ openService }, { buildApp }] = await Promise.all([import('../service.js'), import('../http/server.js')])
  const service = await openService(withConfig(config, { logLevel: 'silent' }))
  try {
    const app = await buildApp(service.ctx)
    const res = await app.inject({ method: 'GET', url: '/api/v1/balance', headers })
    await app.close()
    return res.statusCode === 200
  } finally {
    await service.close()
  }
}

/** The start banner's facts again, without scrolling back through the log. */
async function info(config: Config, base: string | undefined) {
  const url = base ?? config.publicUrl
  const secrets = config.appEnv === 'production' ? undefined : resolveDevSecrets(config).secrets
  const running = await fetch(`${url}/healthz`).then(
    (res) => res.ok,
    () => false,
  )
  const demoKey = secrets?.demoApiKey
  const demoLive = demoKey !== undefined && (await demoKeyIsLive(config, url, running, demoKey))
  return {
    running,
    url,
    api: `${url}/api/v1`,
    docs: `${url}/api/docs`,
    openapi: `${url}/api/openapi.json`,
    database: config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`,
    demo_api_key: demoLive ? demoKey : null,
    // Said rather than printed: the key kept in DATA_DIR no longer opens the API.
    ...(demoKey !== undefined && !demoLive && { demo_api_key_note: 'rotated: the demo key printed at the first start is no longer valid' }),
    admin_token: secrets?.adminToken ?? null,
  }
}

function help(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.usage}`)
  return [
    'usage: npm run -s admin -- <command> [args] [--table] [--url http://host:port]',
    '  (-s keeps the "> pkg@version admin" header npm prints off stdout: it then carries the answer alone)',
    '',
    '  info   where the service is, its docs, the demo API key and admin token',
    '  credentials: ADMIN_TOKEN (acts as an owner, "admin token"), or your own op_ token in OPERATOR_TOKEN or --token op_…,',
    '    which wins over ADMIN_TOKEN when given (tokens:create makes one)',
    '  <command> --help   its usage and an example',
    ...lines,
  ].join('\n')
}

async function main() {
  const { name, args, flags } = parseArgs(process.argv.slice(2))
  // Output and routing flags are the CLI's own, never sent to the API.
  const table = flags.table === true
  const urlFlag = typeof flags.url === 'string' ? flags.url.replace(/\/+$/, '') : undefined
  // A person's token (flag, then OPERATOR_TOKEN) wins over ADMIN_TOKEN: the audit log names them, not "admin token".
  const tokenFlag = flags.token
  delete flags.table
  delete flags.url
  delete flags.token
  if (tokenFlag === true) throw new Error('--token: give your op_… token after it (or set OPERATOR_TOKEN)')
  const command = COMMANDS[name]
  if (command && flags.help === true) {
    console.log(`usage: npm run -s admin -- ${name} ${command.usage}\nexample: npm run -s admin -- ${exampleOf(name, command)}`)
    process.exit(0)
  }
  if (!command && name !== 'info') {
    if (name !== 'help') console.error(`admin: unknown command '${name}'\n`)
    ;(name === 'help' ? console.log : console.error)(help())
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
  const embedded = !config.databaseUrl && config.dataDir !== 'memory'
  const base = urlFlag ?? config.adminUrl ?? (embedded ? runningServiceUrl(config.dataDir) : undefined)
  // The envelope every other command prints, so a script reads data the same way everywhere.
  if (name === 'info') return printAndExit(render({ message: 'OK', data: await info(config, base) }, table), 0)
  const query = queryOf(command, flags)
  const call: Call = {
    method: command.method,
    url: `/api/admin/v1${command.path(args)}${query ? `?${query}` : ''}`,
    body: command.body?.(flags, args),
  }
  const bearer = tokenFlag || process.env.OPERATOR_TOKEN || config.adminToken
  if (!bearer) throw new Error('no credentials: set ADMIN_TOKEN, or your op_… token in OPERATOR_TOKEN or --token')
  if (!base && embedded && dataDirHolder(config.dataDir) !== undefined)
    throw new Error(`a service holds ${config.dataDir} but recorded no URL; pass --url or set ADMIN_URL`)
  // In process, the app logs nothing to stdout: it carries the answer alone.
  const answer = base ? await overHttp(base, call, bearer) : await inProcess(withConfig(config, { logLevel: 'silent' }), call, bearer)
  // A refusal (4xx/5xx) is an error: its body goes to stderr, exit 1.
  if (answer.csv !== undefined) printAndExit(answer.csv.replace(/\r?\n$/, ''), 0)
  else if (answer.status >= 400) printAndExit(render(answer.body, table), 1, process.stderr)
  else printAndExit(render(answer.body, table), 0)
}

main().catch((error) => {
  console.error(`admin: ${(error as Error).message}`)
  process.exit(1)
})
