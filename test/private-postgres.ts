import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

/**
 * A throw-away PostgreSQL cluster of its own on another port, for drills that stop or restart the
 * server (the shared one on 5432 serves every other test). As root its programs run as `postgres`.
 */
export type PrivateCluster = {
  url: string
  /** SIGSTOP the postmaster and every backend: the database hangs without closing a socket. */
  freeze(): void
  thaw(): void
  restart(): Promise<void>
  destroy(): Promise<void>
  /** The postmaster and its children (backends, WAL writer and senders …): whose CPU is the server's. */
  pids(): number[]
}

export function binDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb'))) : []
  return versions.length === 0 ? undefined : path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin')
}

/** The programs, run as `postgres` when the tests run as root (the server refuses to run as root). */
function programs() {
  const bin = binDir()
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql')
  const asRoot = process.getuid?.() === 0
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args]
  const makeDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-pg-'))
    if (asRoot) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim()))
      fs.chownSync(dir, uid, gid)
    }
    return dir
  }
  return { command, makeDir }
}

/** `port`: a chosen one (a URL handed out before its server exists); by default a free one. */
export async function startPrivateCluster(port?: number): Promise<PrivateCluster> {
  const { command, makeDir } = programs()
  const dir = makeDir()
  const data = path.join(dir, 'data')
  try {
    execFileSync(...command('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale', 'C', '--no-sync']), {
      stdio: 'ignore',
    })
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return runCluster(dir, port ?? (await freePort()))
}

/**
 * A streaming replica of `primary` (initdb's pg_hba lets 127.0.0.1 replicate), made as an operator
 * would: `pg_basebackup -R` into a directory of its own, then started on another port.
 */
export async function startReplica(primary: PrivateCluster): Promise<PrivateCluster> {
  const { command, makeDir } = programs()
  const dir = makeDir()
  try {
    await promisify(execFile)(
      ...command('pg_basebackup', ['-D', path.join(dir, 'data'), '-R', '-X', 'stream', '-c', 'fast', '-d', primary.url]),
    )
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return runCluster(dir, await freePort())
}

async function runCluster(dir: string, port: number): Promise<PrivateCluster> {
  const { command } = programs()
  const data = path.join(dir, 'data')
  const pgCtl = (...args: string[]) => promisify(execFile)(...command('pg_ctl', ['-D', data, '-w', '-t', '30', ...args]))
  const postmaster = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
  const pids = () => {
    const parent = postmaster()
    return [parent, ...childrenOf(parent)]
  }
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of pids()) {
      try {
        process.kill(pid, signal)
      } catch {
        // gone already
      }
    }
  }
  try {
    await pgCtl('-l', path.join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60`, 'start')
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // The postmaster first, so it forks nothing new meanwhile.
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    restart: async () => void (await pgCtl('-l', path.join(dir, 'log'), '-m', 'fast', 'restart')),
    pids,
    async destroy() {
      try {
        signalAll('SIGCONT')
        await pgCtl('-m', 'immediate', 'stop').catch(() => signalAll('SIGKILL'))
      } catch {
        // never started or already gone
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

function childrenOf(parent: number): number[] {
  const children: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the command name before it may hold spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) children.push(Number(entry))
    } catch {
      // exited meanwhile
    }
  }
  return children
}

// Its own, not server-process.ts's: that one reaches vitest, and the bench (bench/replica.ts) starts clusters too.
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}
