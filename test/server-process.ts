import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { migratedDataDir } from './database.js'

export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

export type ServerProcess = { child: ChildProcess; base: string; output: () => string; exited: Promise<number | null> }

/**
 * The real service as its own process (node + tsx), ready once its banner (`ready`) is printed. On the
 * embedded database without a DATA_DIR given, it opens a copy of the run's migrated one (no first start's initdb).
 */
export async function startServerProcess(env: Record<string, string>, ready = 'listening on'): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort())
  const dataDir = env.DATABASE_URL ? fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-proc-')) : await migratedDataDir()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: port,
      APP_KEY,
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000)
    child.stdout!.on('data', () => output.includes(ready) && (clearTimeout(timer), resolve()))
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`server exited with ${code}:\n${output}`))))
  })
  return { child, base: `http://127.0.0.1:${port}`, output: () => output, exited }
}

export async function adminCall(base: string, method: string, url: string, body?: object) {
  const res = await fetch(`${base}/api/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body && { 'content-type': 'application/json' }) },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: any }).data
}
