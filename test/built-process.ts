import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { freePort } from './server-process.js'
import { eventually } from './eventually.js'

export const root = path.resolve(import.meta.dirname, '..')

/** `npm run build` into a folder of this test file's own (inside the project, so node_modules resolve); removed after the file. */
export function buildOnce(name: string): string {
  const dist = `.test-dist-${name}-${process.pid}`
  execFileSync(process.execPath, ['scripts/build.mjs', dist], { cwd: root })
  afterAll(() => fs.rmSync(path.join(root, dist), { recursive: true, force: true }))
  return path.join(root, dist)
}

export type BuiltProcess = {
  child: ChildProcess
  port: number
  base: string
  output: () => string
  exited: Promise<number | null>
  waitFor: (pattern: RegExp, ms?: number) => Promise<RegExpMatchArray>
}

const running: ChildProcess[] = []
afterAll(() => running.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')))

/**
 * `node <dist>/main.js` as a deployment runs it, with the test's keys and a private DATA_DIR; the
 * environment of the test run is not passed on (a DATABASE_URL or WORKERS there must not leak in).
 */
export async function startBuilt(dist: string, env: Record<string, string>): Promise<BuiltProcess> {
  return startCommand([process.execPath, path.join(dist, 'main.js')], env, root)
}

/** A command (`argv`, as a Dockerfile's CMD or a unit's ExecStart says it) in `cwd`, with startBuilt's environment. */
export async function startCommand(argv: string[], env: Record<string, string>, cwd: string): Promise<BuiltProcess> {
  const port = Number(env.PORT ?? (await freePort()))
  const child = spawn(argv[0], argv.slice(1), {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_KEY,
      ADMIN_TOKEN,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-role-')),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  return { child, port, base: `http://127.0.0.1:${port}`, ...watchOutput(child) }
}

/**
 * What a started process printed, its exit, and a wait for a line it prints. Generous by default: a
 * first start migrates and a busy machine may take minutes; the bound only ends a hung run.
 */
export function watchOutput(child: ChildProcess) {
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const waitFor = async (pattern: RegExp, ms = 180_000) => {
    const printed = () => {
      const match = output.match(pattern)
      if (!match && child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${pattern}:\n${output}`)
      return match
    }
    const match = await eventually(`${pattern} printed`, printed, (m) => m !== null, { timeoutMs: ms, intervalMs: 50 }).catch(
      (error: Error) => {
        throw error.message.startsWith('never:') ? new Error(`${error.message}:\n${output}`) : error
      },
    )
    return match!
  }
  return { output: () => output, exited, waitFor }
}

/** The exit code, or 'timeout' if the process is still running after `ms`. */
export const exitWithin = (p: BuiltProcess, ms: number) =>
  Promise.race([p.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))])

/** Whether something accepts TCP connections on 127.0.0.1:port now. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}
