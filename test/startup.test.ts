import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { watchOutput } from './built-process.js'

// `npm start` as a user runs it: the build, then its entry point in its own process, embedded database, no configuration.
const root = path.resolve(import.meta.dirname, '..')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-start-'))
const built = `.test-dist-${process.pid}`
execFileSync(process.execPath, ['scripts/build.mjs', built], { cwd: root })
const children: ChildProcess[] = []

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(path.join(root, built), { recursive: true, force: true })
})

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

type Service = {
  child: ChildProcess
  port: number
  output: () => string
  exited: Promise<number | null>
  waitFor: (pattern: RegExp, ms?: number) => Promise<RegExpMatchArray>
}

async function start(env: Record<string, string> = {}): Promise<Service> {
  const port = await freePort()
  const base = { ...process.env }
  for (const name of ['DATABASE_URL', 'APP_KEY', 'ADMIN_TOKEN', 'REDIS_URL', 'SEED_DEMO', 'PUBLIC_URL', 'TRUST_PROXY', 'NODE_OPTIONS'])
    delete base[name]
  const child = spawn(process.execPath, ['--max-semi-space-size=4', `${built}/main.js`], {
    cwd: root,
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', APP_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return { child, port, ...watchOutput(child) }
}

/** A process that must refuse to start: its exit code and everything it printed. */
async function refusal(env: Record<string, string> = {}) {
  const service = await start(env)
  const code = await Promise.race([service.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 180_000))])
  return { code, output: service.output() }
}

describe('npm start', { timeout: 240_000 }, () => {
  let first: Service
  let demoKey: string

  it('starts with no configuration: migrates, seeds a demo and prints its API key', async () => {
    first = await start()
    demoKey = (await first.waitFor(/demo API key: (rk_[\w-]+)/))[1]
    expect(first.output()).toContain(`listening on http://127.0.0.1:${first.port}`)
    expect(first.output()).toMatch(/admin token: +\S{16,}/)
    // Each step of a first start is a line with the seconds since it began, so it never looks hung.
    const steps = first.output().match(/^\[ *\d+\.\d s\] .+$/gm) ?? []
    expect(steps.map((line) => line.replace(/^\[ *\d+\.\d s\] /, '').split(' ')[0])).toEqual(['opening', 'migrating', 'demo', 'opening'])
    const url = (p: string) => `http://127.0.0.1:${first.port}${p}`

    expect((await fetch(url('/readyz'))).status).toBe(200)
    const balance = await (await fetch(url('/api/v1/balance'), { headers: { 'x-apikey': demoKey } })).json()
    expect(balance.data.balance).toBeGreaterThan(0)
    const catalog = await (await fetch(url('/api/v1/item?per_page=all'), { headers: { 'x-apikey': demoKey } })).json()
    const variants = catalog.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
    expect(new Set(variants.map((v: any) => v.order_process))).toEqual(new Set(['auto', 'h2h', 'smm', 'manual']))
    expect(variants.find((v: any) => v.order_process === 'auto').stock).toBeGreaterThan(0)
    // Past the hand-made seven, the catalog is imported from the simulators' price lists: bought from a supplier product, at its cost.
    expect(variants.find((v: any) => v.id === 8)).toMatchObject({ name: 'DANA 50.000', price: 51_750 })
    const adminToken = (await first.waitFor(/admin token: +(\S+)/))[1]
    const operator = async (p: string) =>
      (await (await fetch(url(`/api/admin/v1${p}`), { headers: { authorization: `Bearer ${adminToken}` } })).json()).data
    expect(await operator('/items/8/sources')).toMatchObject({ sources: [{ provider: 'sim-h2h', code: 'dana50', priority: 1 }] })
    expect((await operator('/providers/sim-h2h/products?per_page=100')).map((p: any) => p.code)).toContain('dana50')
    expect((await fetch(url('/api/v1/balance'), { headers: { 'x-apikey': 'rk_wrong' } })).status).toBe(401)
  })

  it('refuses a second process on the same embedded database', async () => {
    const { code, output } = await refusal()
    expect(code, output).not.toBe(0)
    expect(code).not.toBe('timeout')
    expect(output).toMatch(new RegExp(`embedded database in ${dataDir} is in use by process \\d+`))
    // The first one is unharmed.
    expect((await fetch(`http://127.0.0.1:${first.port}/readyz`)).status).toBe(200)
  })

  it('says to set PORT when the port is taken', async () => {
    const { code, output } = await refusal({ PORT: String(first.port), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-port-')) })
    expect(code, output).toBe(1)
    expect(output).toContain(`127.0.0.1:${first.port} is already in use`)
    expect(output).toContain('set PORT to a free port')
  })

  it('stops on SIGTERM, then refuses to reopen the data under another APP_KEY', async () => {
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(fs.existsSync(path.join(dataDir, 'service.lock'))).toBe(false)
    expect(fs.existsSync(path.join(dataDir, 'service.url'))).toBe(false)

    const { code, output } = await refusal({ APP_KEY: 'another-key-0123456789-0123456789-xyz' })
    expect(code, output).not.toBe(0)
    expect(code).not.toBe('timeout')
    expect(output).toContain('APP_KEY differs from the key this database was created with')
  })

  it('restarts on the stored key with the same data and no second demo', async () => {
    const again = await start()
    expect((await again.waitFor(/demo API key: (rk_[\w-]+)/))[1]).toBe(demoKey)
    const adminToken = (await again.waitFor(/admin token: +(\S+)/))[1]
    const res = await fetch(`http://127.0.0.1:${again.port}/api/v1/balance`, { headers: { 'x-apikey': demoKey } })
    expect(res.status).toBe(200)
    const accounts = await (
      await fetch(`http://127.0.0.1:${again.port}/api/admin/v1/resellers`, { headers: { authorization: `Bearer ${adminToken}` } })
    ).json()
    expect(accounts.meta.total).toBe(1)
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)
  })

  it('exits 1 on a configuration error, naming the variable', async () => {
    const { code, output } = await refusal({ PORT: 'abc' })
    expect(code, output).toBe(1)
    expect(output).toMatch(/^ {2}PORT: .*"abc"/m)
  })
})
