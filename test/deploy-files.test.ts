import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { loadConfig } from '../src/config.js'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { exitWithin, listening, root, startCommand, type BuiltProcess } from './built-process.js'
import { onPostgres } from './database.js'
import { configVariables, envExample, read } from './deploy-sources.js'
import { freePort } from './server-process.js'
import { adminQuery, databaseUrlFor } from './templates.js'

// deploy/ kept true without a container engine: the Dockerfile's own RUN and CMD
// lines run in a clean copy of the repository, the compose file and the units are read and checked
// against the code and docs/operating.md. No image is built and no unit is installed (docs/operating.md, "Deploying").
const operating = read('docs/operating.md')
/** The `NAMES` in the one sentence of docs/operating.md that `pattern` finds. */
const namedIn = (pattern: RegExp) => [...operating.match(pattern)![0].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])

/** Whether an IPv4 address lies in a CIDR. */
function inCidr(address: string, cidr: string): boolean {
  const toInt = (a: string) => a.split('.').reduce((n, part) => n * 256 + Number(part), 0)
  const [base, bits] = cidr.split('/')
  const mask = Number(bits) === 0 ? 0 : 2 ** 32 - 2 ** (32 - Number(bits))
  return (toInt(address) & mask) >>> 0 === (toInt(base) & mask) >>> 0
}

type Step = { op: string; args: string }
type Stage = { name: string; from: string; steps: Step[] }

/** A Dockerfile's stages and their instructions (comments dropped, continuations joined). */
function dockerStages(text: string): Stage[] {
  const stages: Stage[] = []
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const m = line.trim().match(/^([A-Z]+)\s+(.*)$/)
    if (!m || line.trim().startsWith('#')) continue
    const [, op, args] = m
    if (op === 'FROM') {
      const [, from, name] = args.match(/^(\S+)(?:\s+AS\s+(\S+))?$/i)!
      stages.push({ name: name ?? String(stages.length), from, steps: [] })
    } else stages.at(-1)!.steps.push({ op, args })
  }
  return stages
}
const argsOf = (stage: Stage, op: string) => stage.steps.filter((s) => s.op === op).map((s) => s.args)
/** ENV lines as a map (KEY=value pairs, no quoting used in the file). */
const envOf = (stage: Stage) => Object.fromEntries(argsOf(stage, 'ENV').flatMap((a) => a.split(/\s+/).map((kv) => kv.split(/=(.*)/s, 2))))
const jsonCommand = (text: string) => JSON.parse(text) as string[]

const stages = dockerStages(read('deploy/Dockerfile'))
const runtime = stages.at(-1)!
const healthcheck = argsOf(runtime, 'HEALTHCHECK')[0]
const healthCommand = jsonCommand(healthcheck.match(/CMD\s+(\[.*\])$/)![1])
const command = jsonCommand(argsOf(runtime, 'CMD')[0])

/** A unit file's keys (the last value of each, and ExecStart as given). */
function unit(file: string): Record<string, string[]> {
  const keys: Record<string, string[]> = {}
  for (const line of read(file).split('\n')) {
    const m = line.match(/^([A-Za-z]+)=(.*)$/)
    if (m) (keys[m[1]] ??= []).push(m[2])
  }
  return keys
}
const units = fs.readdirSync(path.join(root, 'deploy/systemd')).map((f) => ({ file: f, keys: unit(`deploy/systemd/${f}`) }))

describe('deploy/Dockerfile', () => {
  it('builds in one stage and runs in a Node 20 slim one as a non-root user, with a HEALTHCHECK on /readyz and ROLE left to the environment', () => {
    expect(stages.map((s) => s.from)).toEqual(['node:20-slim', 'node:20-slim'])
    expect(argsOf(stages[0], 'RUN')).toContain('npm run build')
    expect(argsOf(runtime, 'RUN').join(' ')).toContain('npm ci --omit=dev')
    expect(argsOf(runtime, 'COPY')).toContain(`--from=${stages[0].name} /app/dist/ dist/`)
    expect(argsOf(runtime, 'USER')).toEqual(['node'])
    expect(command).toEqual(['node', 'dist/main.js'])
    expect(healthCommand).toEqual(['node', 'deploy/healthcheck.mjs'])
    expect(read('deploy/healthcheck.mjs')).toContain('/readyz')
    // A ROLE baked into the image would contradict a deprecated WORKERS set at run time.
    expect(envOf(runtime)).not.toHaveProperty('ROLE')
    expect(envOf(runtime)).toMatchObject({ APP_ENV: 'production', HOST: '0.0.0.0', PORT: '8080' })
  })
})

describe('deploy/compose.yaml', () => {
  const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, any>
    volumes: Record<string, unknown>
  }
  const services = compose.services
  const app = Object.entries(services).filter(([, s]) => s.environment?.ROLE)
  const roles = (role: string) => app.filter(([, s]) => s.environment.ROLE === role).map(([name]) => name)

  it('has PostgreSQL with a volume, Redis, a migrate job, two api and one worker, each with its health check', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'worker']))
    expect(roles('migrate')).toEqual(['migrate'])
    expect(roles('api')).toHaveLength(2)
    expect(roles('worker')).toEqual(['worker'])
    expect(services.postgres.image).toMatch(/^postgres:15/)
    const [volume] = (services.postgres.volumes as string[]).map((v) => v.split(':'))
    expect(volume[1]).toBe('/var/lib/postgresql/data')
    expect(compose.volumes).toHaveProperty(volume[0])
    expect(services.postgres.healthcheck.test).toContain('pg_isready')
    expect(services.redis.healthcheck.test).toContain('redis-cli')
    for (const name of [...roles('api'), ...roles('worker')])
      expect(services[name].healthcheck.test, name).toEqual(['CMD', ...healthCommand])
    // Each API process publishes a port of its own, on the loopback by default.
    const published = roles('api').map((name) => services[name].ports[0] as string)
    expect(new Set(published).size).toBe(2)
    expect(services.worker.environment.METRICS_PORT).toBeDefined()
  })

  it('starts the processes after the migration job succeeded and PostgreSQL is healthy; the job runs once', () => {
    // PgBouncer when the profile "scale" runs it (deploy-scale.test.ts), else skipped.
    expect(services.migrate.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      pgbouncer: { condition: 'service_healthy', required: false },
    })
    expect(services.migrate.restart).toBe('no')
    for (const name of [...roles('api'), ...roles('worker')]) {
      expect(services[name].depends_on, name).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
      })
    }
    for (const name of roles('api')) expect(services[name].depends_on.redis, name).toEqual({ condition: 'service_healthy' })
  })

  it('sets only variables the service reads, and every one docs/operating.md requires on each process (from deploy/.env or its own)', () => {
    const production = namedIn(/In production \(`APP_ENV=production`\) the service requires[^.]*/)
    const everyProcess = namedIn(/Set the same [^.]*/)
    expect(production).toEqual(['DATABASE_URL', 'APP_KEY', 'ADMIN_TOKEN'])
    expect(everyProcess).toEqual(expect.arrayContaining(['APP_KEY', 'ADMIN_TOKEN', 'LEADERBOARD_TZ', 'REDIS_URL']))
    for (const [name, service] of app) {
      const set = Object.keys(service.environment)
      expect(
        set.filter((v) => !configVariables.includes(v)),
        name,
      ).toEqual([])
      expect([...set, ...Object.keys(envExample)], name).toEqual(
        expect.arrayContaining(['APP_ENV', ...production, ...everyProcess, 'ROLE']),
      )
      expect(service.environment.APP_ENV).toBe('production')
    }
  })

  it('hands every process the whole deploy/.env (tuning included), overriding only what a container needs', () => {
    for (const [name, service] of app) {
      // Relative to the compose file: deploy/.env, the file env.example says to fill in.
      expect(service.env_file, name).toEqual('.env')
      // deploy/.env says HOST=127.0.0.1 (right for systemd): in a container that would leave the published port unanswered.
      expect(service.environment.HOST, name).toBe('0.0.0.0')
      // A proxy on the host arrives from the bridge network's gateway; an address set in deploy/.env is added.
      expect(service.environment.TRUST_PROXY, name).toBe('172.16.0.0/12${TRUST_PROXY:+,${TRUST_PROXY}}')
    }
    // Tuning is not listed one by one any more: a variable in the file reaches the process.
    expect(app.every(([, s]) => s.environment.DB_POOL_MAX === undefined && s.environment.LOG_LEVEL === undefined)).toBe(true)
    expect(read('deploy/env.example')).toMatch(/compose: copy to deploy\/\.env; every process reads it whole \(env_file\)/)
  })

  it("the bridge network's CIDR is a TRUST_PROXY the service accepts, and covers a Docker bridge gateway", () => {
    const filled = { ...envExample, APP_KEY, ADMIN_TOKEN, TRIPAY_API_KEY: 'k', TRIPAY_PRIVATE_KEY: 'p', TRIPAY_MERCHANT_CODE: 'T1' }
    const config = loadConfig({ ...filled, ROLE: 'api', TRUST_PROXY: `172.16.0.0/12,${envExample.TRUST_PROXY}` })
    expect(config.trustProxy).toEqual(['172.16.0.0/12', '127.0.0.1'])
    expect(inCidr('172.18.0.1', '172.16.0.0/12')).toBe(true)
    expect(inCidr('172.17.0.1', '172.16.0.0/12')).toBe(true)
  })
})

describe('deploy/env.example', () => {
  const example = envExample

  it('names production variables the service reads, none of those that differ per process, and passes the configuration check once filled in', () => {
    expect(Object.keys(example).filter((v) => !configVariables.includes(v) && v !== 'POSTGRES_PASSWORD')).toEqual([])
    expect(Object.keys(example)).toEqual(
      expect.arrayContaining(['APP_ENV', 'DATABASE_URL', 'APP_KEY', 'ADMIN_TOKEN', 'REDIS_URL', 'PUBLIC_URL', 'TRUST_PROXY']),
    )
    expect(example.APP_ENV).toBe('production')
    // systemd reads the file after a unit's own Environment=: these would override each unit's.
    for (const perProcess of ['ROLE', 'WORKERS', 'PORT', 'METRICS_PORT']) expect(example).not.toHaveProperty(perProcess)
    const filled = { ...example, APP_KEY, ADMIN_TOKEN, TRIPAY_API_KEY: 'k', TRIPAY_PRIVATE_KEY: 'p', TRIPAY_MERCHANT_CODE: 'T1' }
    expect(loadConfig({ ...filled, ROLE: 'api' })).toMatchObject({ appEnv: 'production', role: 'api' })
  })
})

describe('deploy/systemd', () => {
  it('a migrate oneshot, an api template and a worker: non-root, restarted, hardened, reading one environment file', () => {
    const roleOf = (u: (typeof units)[number]) => u.keys.Environment?.join(' ').match(/\bROLE=(\w+)/)?.[1]
    expect(units.map((u) => [u.file, roleOf(u)]).sort()).toEqual([
      ['reseller-api@.service', 'api'],
      ['reseller-migrate.service', 'migrate'],
      ['reseller-worker@.service', 'worker'],
    ])
    for (const { file, keys } of units) {
      expect(keys.User?.[0], file).toMatch(/^(?!root$)\w+/)
      expect(keys.EnvironmentFile, file).toEqual(['/etc/reseller/reseller.env'])
      expect(keys.Restart?.[0], file).toMatch(/^(always|on-failure)$/)
      expect(keys, file).toMatchObject({ NoNewPrivileges: ['yes'], ProtectSystem: ['strict'], ProtectHome: ['yes'], PrivateTmp: ['yes'] })
      expect(keys.ReadWritePaths, file).toBeUndefined()
      // The ExecStart binary is an absolute path that exists here; its script is the build's entry point.
      const [bin, ...args] = keys.ExecStart[0].split(/\s+/)
      expect(fs.existsSync(bin), `${file}: ${bin}`).toBe(true)
      expect(args.at(-1), file).toBe('/opt/reseller/dist/main.js')
      if (keys.Type[0] !== 'oneshot') expect(Number(keys.TimeoutStopSec[0]), file).toBeGreaterThan(15)
    }
    expect(units.find((u) => u.file.startsWith('reseller-migrate'))!.keys.Type).toEqual(['oneshot'])
    expect(units.find((u) => u.file.startsWith('reseller-api@'))!.keys.Environment.join(' ')).toContain('PORT=%i')
    // Several workers on one host: each instance's metrics on a port of its own, none fixed in the unit.
    expect(units.find((u) => u.file.startsWith('reseller-worker@'))!.keys.Environment.join(' ')).toMatch(/\bMETRICS_PORT=%i\b/)
    for (const { file, keys } of units) expect(keys.Environment.join(' '), file).not.toMatch(/METRICS_PORT=\d/)
  })
})

// The Dockerfile's commands, run: a clean copy of the repository (tracked and untracked files, as
// the working tree has them), each stage in a folder of its own standing for its WORKDIR.
describe.skipIf(!onPostgres)('the Dockerfile run without a container engine (PostgreSQL)', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-deploy-'))
  const processes: BuiltProcess[] = []
  const database = `reseller_deploy_${process.pid}_${Date.now() % 100000}`
  afterAll(async () => {
    processes.forEach((p) => p.child.kill('SIGKILL'))
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  /** The build context: what `git ls-files` lists (and untracked files not ignored), from the working tree. */
  function context(): string {
    const dir = path.join(scratch, 'context')
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    for (const file of files.split('\0').filter(Boolean)) {
      const from = path.join(root, file)
      if (!fs.existsSync(from) || !fs.statSync(from).isFile()) continue // deleted in the working tree
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      fs.copyFileSync(from, path.join(dir, file))
    }
    return dir
  }

  /** COPY as Docker does it: a folder's contents into the destination, a file into a destination folder. */
  function copy(args: string, ctx: string, dirs: Map<string, string>, workdir: string) {
    const parts = args.split(/\s+/)
    const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length)
    const paths = parts.filter((p) => !p.startsWith('--'))
    const dest = paths.pop()!
    const base = from ? dirs.get(from)! : ctx
    for (const src of paths) {
      const source = path.join(base, src.replace(/^\/app\/?/, ''))
      const target = path.join(workdir, dest.replace(/^\/app\/?/, ''))
      const into = fs.statSync(source).isFile() && dest.endsWith('/') ? path.join(target, path.basename(source)) : target
      fs.mkdirSync(path.dirname(into), { recursive: true })
      fs.cpSync(source, into, { recursive: true })
    }
  }

  it('builds, installs the runtime dependencies, then its CMD migrates (ROLE=migrate), serves (ROLE=api) and works (ROLE=worker), the HEALTHCHECK agreeing', async () => {
    const ctx = context()
    const dirs = new Map<string, string>()
    const ran: string[] = []
    for (const stage of stages) {
      const workdir = path.join(scratch, `stage-${stage.name}`)
      fs.mkdirSync(workdir, { recursive: true })
      dirs.set(stage.name, workdir)
      const env = {
        PATH: process.env.PATH!,
        HOME: os.homedir(),
        npm_config_prefer_offline: 'true',
        npm_config_update_notifier: 'false',
        ...envOf(stage),
      }
      for (const { op, args } of stage.steps) {
        if (op === 'COPY') copy(args, ctx, dirs, workdir)
        if (op !== 'RUN') continue
        for (const cmd of args.split(/\s*&&\s*/)) {
          // The build stage's full install is the repository's own (the same `npm ci` of the same lockfile, run
          // before the tests): a minute of downloads saved. The cache clean only slims the image, and would empty this machine's cache.
          if (/^npm ci\b/.test(cmd) && !cmd.includes('--omit=dev')) {
            fs.symlinkSync(path.join(root, 'node_modules'), path.join(workdir, 'node_modules'))
            continue
          }
          if (/^npm cache clean/.test(cmd)) continue
          const result = spawnSync('sh', ['-c', cmd], { cwd: workdir, env, encoding: 'utf8', timeout: 90_000 })
          expect(result.status, `${stage.name}: RUN ${cmd}\n${result.stdout}${result.stderr}`).toBe(0)
          ran.push(cmd)
        }
      }
    }
    expect(ran).toEqual(expect.arrayContaining(['npm run build', 'npm ci --omit=dev --no-audit --no-fund']))
    const app = dirs.get(runtime.name)!
    // Only the runtime dependencies: nothing the service loads may be a dev dependency.
    expect(fs.existsSync(path.join(app, 'node_modules/vitest'))).toBe(false)
    expect(fs.existsSync(path.join(app, 'src'))).toBe(false)

    await adminQuery(`CREATE DATABASE ${database}`)
    // Production serves top-ups through Tripay only; these keys are never used (no top-up is made).
    const tripay = { PAYMENT_GATEWAY: 'tripay', TRIPAY_API_KEY: 'k', TRIPAY_PRIVATE_KEY: 'p', TRIPAY_MERCHANT_CODE: 'T1' }
    const image = { ...envOf(runtime), DATABASE_URL: databaseUrlFor(database), APP_KEY, ADMIN_TOKEN, HOST: '127.0.0.1', ...tripay }
    const run = async (env: Record<string, string>) => {
      const p = await startCommand(command, { ...image, ...env }, app)
      processes.push(p)
      return p
    }
    const check = (env: Record<string, string>) =>
      spawnSync(healthCommand[0], healthCommand.slice(1), { cwd: app, env: { PATH: process.env.PATH!, ...image, ...env }, timeout: 10_000 })
        .status

    const migrate = await run({ ROLE: 'migrate' })
    expect(await exitWithin(migrate, 60_000), migrate.output()).toBe(0)

    const api = { ROLE: 'api', PORT: String(await freePort()) }
    const worker = { ROLE: 'worker', METRICS_PORT: String(await freePort()) }
    const [served, working] = await Promise.all([run(api), run(worker)])
    await served.waitFor(/listening on/)
    await working.waitFor(/workers running/)
    expect((await fetch(`${served.base}/readyz`)).status).toBe(200)
    expect(check(api)).toBe(0)
    expect(check(worker)).toBe(0)
    expect(await listening(working.port)).toBe(false)
    served.child.kill('SIGTERM')
    working.child.kill('SIGTERM')
    expect(await exitWithin(served, 20_000), served.output()).toBe(0)
    expect(await exitWithin(working, 20_000), working.output()).toBe(0)
    expect(check(api)).toBe(1)

    // Each unit's ExecStart (its node flags and its script) as installed in /opt/reseller, syntax-checked.
    for (const { file, keys } of units) {
      const [bin, ...args] = keys.ExecStart[0].replaceAll('/opt/reseller', app).split(/\s+/)
      const result = spawnSync(bin, [...args.slice(0, -1), '--check', args.at(-1)!], { encoding: 'utf8' })
      expect(result.status, `${file}: ${result.stderr}`).toBe(0)
    }
  }, 120_000)
})
