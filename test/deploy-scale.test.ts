import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { loadConfig } from '../src/config.js'
import { ADMIN_TOKEN, APP_KEY } from './app.js'
import { root } from './built-process.js'
import { configVariables, envExample, read } from './deploy-sources.js'

// deploy/compose.yaml's optional profile "scale" (docs/operating.md, "Production topology"): a
// streaming replica and PgBouncer, and the lines of deploy/env.example that point the processes at
// them. No container engine here: the files are parsed and checked against each other and the code.
const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, any>
  volumes: Record<string, unknown>
}
const services = compose.services
const profiled = Object.keys(services).filter((name) => services[name].profiles)
const app = Object.values(services).filter((s) => s.environment?.ROLE)

/** The commented block of env.example that turns the profile on, uncommented. */
const scaleLines: Record<string, string> = Object.fromEntries(
  read('deploy/env.example')
    .split(/^# compose only, the profile "scale"/m)[1]
    .split('\n')
    .flatMap((l) => l.match(/^#([A-Z][A-Z0-9_]*)=(.*)$/)?.slice(1, 3) ?? [])
    .reduce<string[][]>((pairs, v, i) => (i % 2 === 0 ? [...pairs, [v]] : (pairs.at(-1)!.push(v), pairs)), []),
)

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}`, from `vars`. */
const interpolate = (text: string, vars: Record<string, string>) =>
  text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, rest?: string) => {
    if (vars[name]) return vars[name]
    if (op === '?') throw new Error(rest)
    return op === '-' ? rest! : ''
  })
const hostOf = (url: string) => new URL(url).hostname
const flag = (command: string[], name: string) => command.find((c) => c.startsWith(`${name}=`))?.split('=')[1]

describe('deploy/compose.yaml, the profile "scale"', () => {
  it('adds only a replica and PgBouncer; nothing that always runs needs them', () => {
    expect(profiled.sort()).toEqual(['pgbouncer', 'replica'])
    for (const name of profiled) expect(services[name].profiles, name).toEqual(['scale'])
    for (const [name, service] of Object.entries(services))
      for (const [dependency, how] of Object.entries((service.depends_on ?? {}) as Record<string, { required?: boolean }>))
        if (profiled.includes(dependency)) expect(how.required, `${name} → ${dependency}`).toBe(false)
  })

  it('the replica is a pg_basebackup -R copy of the primary, on a volume of its own, as large as the primary', () => {
    const { replica, postgres } = services
    expect(replica.image).toBe(postgres.image)
    expect(replica.environment.PRIMARY_HOST).toBe('postgres')
    expect(replica.environment.PGUSER).toBe(postgres.environment.POSTGRES_USER)
    const [data, script] = (replica.volumes as string[]).map((v) => v.split(':'))
    expect(data[1]).toBe('/var/lib/postgresql/data')
    expect(compose.volumes).toHaveProperty(data[0])
    expect(data[0]).not.toBe((postgres.volumes as string[])[0].split(':')[0])
    // The entrypoint is the mounted script, which clones once and then hands over to the image's own.
    expect(replica.entrypoint).toEqual(['sh', script[1]])
    const file = path.join('deploy', script[0])
    const text = read(file).replace(/\\\n/g, ' ')
    expect(text).toMatch(/pg_basebackup [^\n]*--write-recovery-conf/)
    expect(text).toMatch(/exec docker-entrypoint\.sh "\$@"/)
    execFileSync('sh', ['-n', path.join(root, file)])
    // A hot standby refuses to start with fewer connections than the primary allows.
    expect(Number(flag(replica.command, 'max_connections'))).toBeGreaterThanOrEqual(Number(flag(postgres.command, 'max_connections')))
  })

  it('the primary lets a replica stream from the network and keeps WAL for one that restarts', () => {
    const { postgres } = services
    const hba = (postgres.volumes as string[]).map((v) => v.split(':')).find(([, target]) => target === flag(postgres.command, 'hba_file'))!
    expect(read(path.join('deploy', hba[0]))).toMatch(/^host\s+replication\s+all\s+all\s+scram-sha-256$/m)
    expect(Number(flag(postgres.command, 'wal_keep_size'))).toBeGreaterThan(0)
  })

  it('PgBouncer ≥ 1.21 in transaction mode carries named statements and every process’s connections', () => {
    const { pgbouncer, postgres } = services
    const minor = Number(pgbouncer.image.match(/^edoburu\/pgbouncer:v1\.(\d+)\./)![1])
    expect(minor).toBeGreaterThanOrEqual(21)
    const env = pgbouncer.environment
    expect(env).toMatchObject({ DB_HOST: 'postgres', POOL_MODE: 'transaction', AUTH_TYPE: 'scram-sha-256' })
    expect([env.DB_NAME, env.DB_USER]).toEqual([postgres.environment.POSTGRES_DB, postgres.environment.POSTGRES_USER])
    expect(Number(env.MAX_PREPARED_STATEMENTS)).toBeGreaterThan(0)
    // The service sends no startup parameter: nothing to ignore.
    expect(env).not.toHaveProperty('IGNORE_STARTUP_PARAMETERS')
    // Each process: its pool and pipelines, a worker the webhook worker's 4 too; a migrate job 2.
    const perProcess = (s: any) =>
      Number(envExample.DB_POOL_MAX) + Number(envExample.DB_PIPELINES) + (s.environment.ROLE === 'worker' ? 4 : 0)
    const clients = app.filter((s) => s.environment.ROLE !== 'migrate').reduce((n, s) => n + perProcess(s), 2)
    expect(Number(env.MAX_CLIENT_CONN)).toBeGreaterThanOrEqual(clients)
    expect(Number(env.DEFAULT_POOL_SIZE)).toBeLessThan(Number(flag(postgres.command, 'max_connections')))
  })

  /** A process's configuration as compose gives it from deploy/.env (`vars`), with the secrets a start needs. */
  const configOf = (service: any, vars: Record<string, string>) =>
    loadConfig({
      ...vars,
      APP_KEY,
      ADMIN_TOKEN,
      TRIPAY_API_KEY: 'k',
      TRIPAY_PRIVATE_KEY: 'p',
      TRIPAY_MERCHANT_CODE: 'T1',
      ROLE: service.environment.ROLE,
      DATABASE_URL: interpolate(service.environment.DATABASE_URL, vars),
      DATABASE_LISTEN_URL: interpolate(service.environment.DATABASE_LISTEN_URL, vars),
    })

  it('deploy/env.example’s lines point every process at them: DATABASE_URL at PgBouncer, LISTEN at PostgreSQL, reads at the replica', () => {
    expect(Object.keys(scaleLines)).toEqual(['COMPOSE_PROFILES', 'DATABASE_HOST', 'DATABASE_POOLER', 'DATABASE_READ_URL'])
    expect(scaleLines.COMPOSE_PROFILES).toBe('scale')
    expect(scaleLines.DATABASE_HOST).toBe('pgbouncer')
    // Beside compose's own two, what reaches the processes from deploy/.env is the service's.
    expect(['DATABASE_POOLER', 'DATABASE_READ_URL'].every((v) => configVariables.includes(v))).toBe(true)
    for (const service of app) {
      const config = configOf(service, { ...envExample, ...scaleLines })
      expect(config.databasePooler).toBe('transaction')
      expect(hostOf(config.databaseUrl!)).toBe('pgbouncer')
      expect(hostOf(config.databaseListenUrl!)).toBe('postgres')
      expect(config.databaseReadUrls.map(hostOf)).toEqual(['replica'])
      // Without the lines: PostgreSQL itself, no pooler, no replica.
      const plain = configOf(service, envExample)
      expect([hostOf(plain.databaseUrl!), plain.databasePooler, plain.databaseReadUrls]).toEqual(['postgres', 'none', []])
    }
  })
})

describe('deploy/postgres/replica-entrypoint.sh, run with stand-ins for the image’s tools', () => {
  // pg_isready, gosu, pg_basebackup, chown and the image's entrypoint as scripts that log their arguments.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-entrypoint-'))
  const log = path.join(bin, 'calls.log')
  const standIn = (name: string, body = '') =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> "${log}"\n${body}\n`, { mode: 0o755 })
  standIn('pg_isready')
  standIn('chown')
  standIn('gosu', 'shift; exec "$@"')
  // What -R leaves behind: a data folder PostgreSQL recognises.
  standIn('pg_basebackup', 'for a in "$@"; do case "$a" in --pgdata=*) echo 15 > "${a#--pgdata=}/PG_VERSION";; esac; done')
  standIn('docker-entrypoint.sh')
  afterAll(() => fs.rmSync(bin, { recursive: true, force: true }))

  const start = (pgdata: string) => {
    fs.rmSync(log, { force: true })
    execFileSync('sh', [path.join(root, 'deploy/postgres/replica-entrypoint.sh'), 'postgres', '-c', 'max_connections=150'], {
      env: { PATH: `${bin}:${process.env.PATH}`, PGDATA: pgdata, PRIMARY_HOST: 'postgres' },
    })
    return fs.readFileSync(log, 'utf8').trim().split('\n')
  }

  it('clones the primary once, with -R into the data folder, then always hands over to the image’s entrypoint', () => {
    const pgdata = path.join(bin, 'data')
    const first = start(pgdata)
    expect(first[0]).toBe('pg_isready --quiet --host=postgres --port=5432')
    expect(first.find((c) => c.startsWith('pg_basebackup'))).toBe(
      `pg_basebackup --host=postgres --port=5432 --pgdata=${pgdata} --write-recovery-conf --wal-method=stream --checkpoint=fast --no-password`,
    )
    expect(first.at(-1)).toBe('docker-entrypoint.sh postgres -c max_connections=150')
    expect(start(pgdata)).toEqual(['docker-entrypoint.sh postgres -c max_connections=150'])
  })
})
