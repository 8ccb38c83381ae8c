// DATA_DIR of the embedded database: the lock file that makes it one process's, and the URL that process serves.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Embedded PGlite belongs to one process: a lock file in DATA_DIR says which. */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = lockFile(dataDir)
  const holder = dataDirHolder(dataDir)
  if (holder !== undefined)
    throw new Error(
      `the embedded database in ${dataDir} is in use by process ${holder}; stop it, or set DATA_DIR to another folder (a database of its own), or DATABASE_URL for PostgreSQL`,
    )
  // A previous holder's URL goes first: until this process records its own, the CLI finds none, not a stale one.
  fs.rmSync(urlFile(dataDir), { force: true })
  fs.writeFileSync(file, String(process.pid))
  return () => {
    if (readLockHolder(file) !== process.pid) return
    fs.rmSync(urlFile(dataDir), { force: true })
    fs.rmSync(file, { force: true })
  }
}

/** The live process other than this one that holds the embedded database, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  const pid = readLockHolder(lockFile(dataDir))
  return pid !== undefined && pid !== process.pid && isAlive(pid) ? pid : undefined
}

const lockFile = (dataDir: string) => path.join(dataDir, 'service.lock')
const urlFile = (dataDir: string) => path.join(dataDir, 'service.url')

/** Beside the lock, where the holder listens: `npm run admin` finds the service there, whatever its PORT. */
export function recordServiceUrl(dataDir: string, url: string): void {
  fs.writeFileSync(urlFile(dataDir), `${url}\n`)
}

/** The URL the live holder of the embedded database recorded, if any. */
export function runningServiceUrl(dataDir: string): string | undefined {
  if (dataDirHolder(dataDir) === undefined) return undefined
  try {
    return fs.readFileSync(urlFile(dataDir), 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}

function readLockHolder(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A new embedded database is created and migrated by a short-lived process of its own
 * (./embedded-first-start.ts): the WebAssembly memory that initdb and the first migrations grow goes
 * with it. Only from the built service (dist/); run from TypeScript sources it is done in-process.
 */
export async function prepareEmbeddedApart(pgliteDir: string): Promise<void> {
  const program = fileURLToPath(new URL('./embedded-first-start.js', import.meta.url))
  if (fs.existsSync(path.join(pgliteDir, 'PG_VERSION')) || !fs.existsSync(program)) return
  const child = spawn(process.execPath, [program, pgliteDir], { stdio: ['ignore', 'inherit', 'inherit'] })
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve))
  if (code !== 0) throw new Error(`creating the embedded database in ${pgliteDir} failed (exit code ${code})`)
}
