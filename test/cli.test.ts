import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { buildOnce, root, startBuilt, type BuiltProcess } from './built-process.js'
import { migratedDataDir } from './database.js'
import { freePort } from './server-process.js'

const run = promisify(execFile)
// What `npm run admin` runs after its build: node dist/cli/admin.js (each call under tsx cost a second
// or more of compiling and loading), and the service as `npm start` runs it.
const dist = buildOnce('cli')
const adminJs = path.join(dist, 'cli/admin.js')

async function startService(env: Record<string, string>): Promise<BuiltProcess> {
  const service = await startBuilt(dist, env)
  await service.waitFor(/listening on/)
  return service
}

async function admin(env: Record<string, string>, ...args: string[]) {
  const { stdout } = await run(process.execPath, [adminJs, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, APP_KEY, ADMIN_TOKEN, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env },
  })
  return JSON.parse(stdout)
}

describe('npm run admin', () => {
  const servers: BuiltProcess[] = []
  afterAll(() => servers.forEach((s) => s.child.kill('SIGKILL')))

  it('opens the embedded database itself when no service holds it, and talks HTTP to one that does', async () => {
    // An empty DATA_DIR: the CLI creates the database (initdb and the migrations, apart) as a first start does.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-cli-'))
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()) }
    const created = await admin(env, 'resellers:create', '--name', 'CLI Shop')
    expect(created.data).toMatchObject({ id: 1, name: 'CLI Shop', balance: 0 })
    expect(created.data.api_key).toMatch(/^rk_/)
    const credited = await admin(env, 'balance:adjust', '1', '--amount', '25000', '--reason', 'opening', '--reference', 'cli-1')
    expect(credited.data).toMatchObject({ applied: true, entry: { balance_after: 25_000 } })
    // The first owner, on the database itself: the one-time link to the console.
    const owner = await admin(env, 'operators:create', '--owner', '--email', 'owner@cli.example', '--name', 'CLI Owner')
    expect(owner.data).toMatchObject({ email: 'owner@cli.example', name: 'CLI Owner', role: 'owner', status: 'invited' })
    expect(owner.data.invite_url).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}$/)

    const server = await startService(env)
    servers.push(server)
    // The service now owns the database: the CLI goes through its operator API.
    const again = await admin(env, 'balance:adjust', '1', '--amount', '25000', '--reason', 'opening', '--reference', 'cli-1')
    expect(again.data).toMatchObject({ applied: false, entry: { balance_after: 25_000 } })
    const listed = await admin(env, 'resellers:list')
    expect(listed.data.map((a: any) => [a.name, a.balance])).toEqual([['CLI Shop', 25_000]])
    const res = await fetch(`${server.base}/api/v1/balance`, { headers: { 'x-apikey': created.data.api_key } })
    expect(await res.json()).toEqual({ message: 'OK', data: { balance: 25_000 } })
    expect((await admin(env, 'operators:list')).data.map((o: any) => [o.email, o.role])).toEqual([['owner@cli.example', 'owner']])
    // A person's token, given, wins over ADMIN_TOKEN: an unknown one is refused rather than falling back.
    const asUnknown: [Record<string, string>, string[]][] = [
      [env, ['--token', 'op_unknown']],
      [{ ...env, OPERATOR_TOKEN: 'op_unknown' }, []],
    ]
    for (const [withEnv, flags] of asUnknown) {
      const refused = await admin(withEnv, 'me', ...flags).catch((e) => e)
      expect([refused.code, JSON.parse(refused.stderr)]).toEqual([1, { message: 'UNAUTHORIZED' }])
    }
    expect((await admin(env, 'me')).data).toEqual({ id: null, email: null, name: 'admin token', role: 'owner' })
  }, 300_000)
})

describe('npm run admin: finding the service, and its output', () => {
  const servers: BuiltProcess[] = []
  const scratch: string[] = []
  afterAll(() => {
    servers.forEach((s) => s.child.kill('SIGKILL'))
    scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }))
  })
  const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, APP_KEY, ADMIN_TOKEN, SEED_DEMO: 'false', ...extra })
  const cli = (extra: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [adminJs, ...args], { cwd: root, env: env(extra) }).catch((e) => e)
  // A DATA_DIR whose database the run's template already migrated: the first start's cost is the test above's.
  const dataDirOfItsOwn = async () => {
    const dataDir = await migratedDataDir()
    scratch.push(dataDir)
    return dataDir
  }

  it('finds a service on any port through the URL beside its lock; prints the answer alone, as JSON or a table', async () => {
    const dataDir = await dataDirOfItsOwn()
    // In process, at the default log level: nothing but the answer on stdout.
    const created = await cli({ DATA_DIR: dataDir }, 'resellers:create', '--name', 'First')
    expect(JSON.parse(created.stdout).data.name).toBe('First')
    // A refusal in process likewise: the body on stderr, exit 1.
    const invalid = await cli({ DATA_DIR: dataDir }, 'resellers:create')
    expect([invalid.code, invalid.stdout]).toEqual([1, ''])
    expect(JSON.parse(invalid.stderr)).toMatchObject({ message: 'VALIDATION_ERROR' })

    const server = await startService({ DATA_DIR: dataDir })
    servers.push(server)
    // No PORT here: the CLI reads where the service listens from DATA_DIR.
    const listed = await cli({ DATA_DIR: dataDir }, 'resellers:list')
    expect(JSON.parse(listed.stdout).data.map((a: any) => a.name)).toEqual(['First'])
    const table = await cli({ DATA_DIR: dataDir }, 'resellers:list', '--table')
    const [head, row] = table.stdout.trim().split('\n')
    expect(head).toMatch(/^id\s+name\s+/)
    expect(row).toMatch(/^1\s+First\s+/)
    const info = JSON.parse((await cli({ DATA_DIR: dataDir }, 'info')).stdout)
    expect(info).toMatchObject({ message: 'OK', data: { running: true, url: server.base, docs: `${server.base}/api/docs` } })
    // A refusal is an error: its body on stderr, nothing on stdout, exit 1.
    const missing = await cli({ DATA_DIR: dataDir }, 'resellers:show', '999')
    expect(missing.code).toBe(1)
    expect(missing.stdout).toBe('')
    expect(JSON.parse(missing.stderr)).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  }, 300_000)

  it('info prints the demo key only while it still opens the API, and says when it was rotated', async () => {
    const dataDir = await dataDirOfItsOwn()
    const created = JSON.parse((await cli({ DATA_DIR: dataDir }, 'resellers:create', '--name', 'Demo')).stdout).data
    // What the first start's seeding leaves in DATA_DIR: the demo reseller's key.
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ demoApiKey: created.api_key }))
    const before = JSON.parse((await cli({ DATA_DIR: dataDir }, 'info')).stdout).data
    expect(before).toMatchObject({ running: false, demo_api_key: created.api_key })
    expect(before).not.toHaveProperty('demo_api_key_note')
    const rotated = await cli({ DATA_DIR: dataDir }, 'resellers:rotate-key', String(created.id))
    expect(JSON.parse(rotated.stdout).data.api_key).not.toBe(created.api_key)
    const after = JSON.parse((await cli({ DATA_DIR: dataDir }, 'info')).stdout).data
    expect(after.demo_api_key).toBeNull()
    expect(after.demo_api_key_note).toMatch(/^rotated/)
    // Asked of the running service likewise.
    const server = await startService({ DATA_DIR: dataDir })
    servers.push(server)
    const running = JSON.parse((await cli({ DATA_DIR: dataDir }, 'info')).stdout).data
    expect(running).toMatchObject({ running: true, demo_api_key: null, demo_api_key_note: expect.stringMatching(/^rotated/) })
  }, 300_000)

  it('names the URL it could not reach, says an unknown command is unknown, and exits when its reader goes away', async () => {
    const dataDir = await dataDirOfItsOwn()
    const port = await freePort()
    // `| head -0`: the pipe is closed before the CLI writes; it must end rather than hang.
    const piped = spawn(process.execPath, [adminJs, 'resellers:list'], {
      cwd: root,
      env: env({ DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    piped.stdout.destroy()
    const [refused, unknown, pipedExit] = await Promise.all([
      cli({ DATA_DIR: dataDir, ADMIN_URL: `http://127.0.0.1:${port}` }, 'resellers:list'),
      cli({ DATA_DIR: dataDir }, 'reseller:lsit'),
      new Promise((resolve) => piped.on('exit', resolve)),
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`cannot reach the service at http://127.0.0.1:${port}`)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.split('\n')[0]).toBe("admin: unknown command 'reseller:lsit'")
    expect(unknown.stderr).toContain('usage: npm run -s admin -- <command>')
    expect(pipedExit).toBe(0)
  }, 300_000)
})
