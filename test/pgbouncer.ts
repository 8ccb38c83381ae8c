import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { watchOutput, listening } from './built-process.js'
import { eventually } from './eventually.js'
import { freePort } from './server-process.js'

// Where .ci/pgbouncer.sh leaves its build (as root, and as anyone else), then the PATH's.
const CANDIDATES = [
  process.env.PGBOUNCER_BIN,
  '/var/cache/pgbouncer-ci/bin/pgbouncer',
  path.join(os.homedir(), '.cache/pgbouncer/bin/pgbouncer'),
  'pgbouncer',
].filter((c): c is string => Boolean(c))

/** A PgBouncer ≥ 1.21 (max_prepared_statements), or why there is none. */
export function findPgBouncer(): { bin: string } | { missing: string } {
  const seen: string[] = []
  for (const bin of CANDIDATES) {
    let version: string
    try {
      version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0]
    } catch {
      continue
    }
    const minor = Number(/^PgBouncer 1\.(\d+)/.exec(version)?.[1] ?? 0)
    if (minor >= 21) return { bin }
    seen.push(`${bin}: ${version}`)
  }
  return { missing: `no PgBouncer ≥ 1.21 (run .ci/pgbouncer.sh, or set PGBOUNCER_BIN)${seen.length ? `; found ${seen.join(', ')}` : ''}` }
}

export type PgBouncer = { url: (database: string) => string; admin: string; output: () => string; close: () => Promise<void> }

const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())

/**
 * PgBouncer in transaction mode on a free 127.0.0.1 port in front of `server` (a postgres:// URL
 * with trust authentication), its named prepared statements tracked (max_prepared_statements).
 * As root it runs as `postgres`: PgBouncer refuses to run as root.
 */
export async function startPgBouncer(bin: string, server: string, databases: string[]): Promise<PgBouncer> {
  const target = new URL(server)
  const user = decodeURIComponent(target.username) || 'postgres'
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'))
  fs.chmodSync(dir, 0o755)
  const entries = databases.map((name) => `${name} = host=${target.hostname} port=${target.port || 5432} dbname=${name}`)
  const ini = [
    '[databases]',
    ...entries,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${dir}/userlist.txt`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    'max_prepared_statements = 200',
    'default_pool_size = 20',
    'max_client_conn = 500',
  ]
  fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), ini.join('\n') + '\n', { mode: 0o644 })
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 })
  const asPostgres = process.getuid?.() === 0 && { uid: idOf('-u'), gid: idOf('-g') }
  const child = spawn(bin, [path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'], ...asPostgres })
  const { output, exited } = watchOutput(child)
  await eventually(
    `PgBouncer on port ${port}`,
    () => listening(port),
    (up) => up || child.exitCode !== null,
    { timeoutMs: 30_000 },
  )
  if (child.exitCode !== null) throw new Error(`PgBouncer exited ${child.exitCode}:\n${output()}`)
  const url = (database: string) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`
  return {
    url,
    admin: url('pgbouncer'),
    output,
    close: async () => {
      // SIGINT: a safe shutdown once every transaction ended (SIGTERM would wait for every client to leave).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT')
      const late = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(late)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
