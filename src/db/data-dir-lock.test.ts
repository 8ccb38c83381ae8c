import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { acquireDataDirLock, recordServiceUrl, runningServiceUrl } from './data-dir.js'

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-lock-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))
const dataDir = (name: string) => {
  const dir = path.join(scratch, name)
  fs.mkdirSync(dir)
  return dir
}
const exists = (dir: string, file: string) => fs.existsSync(path.join(dir, file))

describe("the embedded database's lock and the URL beside it", () => {
  it("drops a previous run's URL when taking the lock, and its own when releasing it", () => {
    const dir = dataDir('stale')
    // A previous run that died without cleaning up: its lock names a process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    fs.writeFileSync(path.join(dir, 'service.lock'), String(gone))
    fs.writeFileSync(path.join(dir, 'service.url'), 'http://127.0.0.1:1\n')

    const release = acquireDataDirLock(dir)
    // Migrations and the seed run now: a CLI must not be sent to the old URL meanwhile.
    expect(exists(dir, 'service.url')).toBe(false)
    expect(fs.readFileSync(path.join(dir, 'service.lock'), 'utf8')).toBe(String(process.pid))

    recordServiceUrl(dir, 'http://127.0.0.1:2')
    expect(exists(dir, 'service.url')).toBe(true)
    release()
    expect(exists(dir, 'service.url')).toBe(false)
    expect(exists(dir, 'service.lock')).toBe(false)
  })

  it("leaves a live holder's lock and URL alone when refused", async () => {
    const dir = dataDir('held')
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' })
    try {
      fs.writeFileSync(path.join(dir, 'service.lock'), String(holder.pid))
      recordServiceUrl(dir, 'http://127.0.0.1:3')
      expect(() => acquireDataDirLock(dir)).toThrow(`in use by process ${holder.pid}`)
      // The way out names both settings: another DATA_DIR, or PostgreSQL.
      expect(() => acquireDataDirLock(dir)).toThrow(/set DATA_DIR to another folder .* or DATABASE_URL/)
      expect(runningServiceUrl(dir)).toBe('http://127.0.0.1:3')
    } finally {
      holder.kill('SIGKILL')
    }
  })
})
