import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { freePort, startServerProcess, type ServerProcess } from './server-process.js'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '..')

async function admin(env: Record<string, string>, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, APP_KEY, ADMIN_TOKEN, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env },
  })
  return JSON.parse(stdout)
}

describe('npm run admin', () => {
  const servers: ServerProcess[] = []
  afterAll(() => servers.forEach((s) => s.child.kill('SIGKILL')))

  it('opens the embedded database itself when no service holds it, and talks HTTP to one that does', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-cli-'))
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()) }
    const created = await admin(env, 'resellers:create', '--name', 'CLI Shop')
    expect(created.data).toMatchObject({ id: 1, name: 'CLI Shop', balance: 0 })
    expect(created.data.api_key).toMatch(/^rk_/)
    const credited = await admin(env, 'balance:adjust', '1', '--amount', '25000', '--reason', 'opening', '--reference', 'cli-1')
    expect(credited.data).toMatchObject({ applied: true, entry: { balance_after: 25_000 } })

    const server = await startServerProcess(env)
    servers.push(server)
    // The service now owns the database: the CLI goes through its operator API.
    const again = await admin(env, 'balance:adjust', '1', '--amount', '25000', '--reason', 'opening', '--reference', 'cli-1')
    expect(again.data).toMatchObject({ applied: false, entry: { balance_after: 25_000 } })
    const listed = await admin(env, 'resellers:list')
    expect(listed.data.map((a: any) => [a.name, a.balance])).toEqual([['CLI Shop', 25_000]])
    const res = await fetch(`${server.base}/api/v1/balance`, { headers: { 'x-apikey': created.data.api_key } })
    expect(await res.json()).toEqual({ message: 'OK', data: { balance: 25_000 } })
  })
})
