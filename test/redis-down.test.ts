import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from './database.js'
import { eventually, pause, until } from './eventually.js'
import { adminCall, freePort, startServerProcess, type ServerProcess } from './server-process.js'

const LIMIT = 30

/** A Redis of this test's own on `port`, answering once spawn() resolves. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  )
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, enableOfflineQueue: false })
  probe.on('error', () => {})
  try {
    const connects = () =>
      probe.connect().then(
        () => true,
        () => false,
      )
    await until(`redis-server on ${port} answers`, connects, { timeoutMs: 30_000, intervalMs: 50 })
    return child
  } finally {
    probe.disconnect()
  }
}

// Windows are fixed minutes: counting across a boundary would start over mid-test.
async function awayFromWindowEdge(needMs: number) {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < needMs) await pause(left + 50)
}

// docs/design.md §12: with REDIS_URL set and Redis down or hung, the rate limit falls back to in-process counters.
describe('Redis lost under the rate limiter', () => {
  let redisPort: number
  let redis: ChildProcess | undefined
  let server: ServerProcess | undefined
  let closeDatabase = async () => {}
  beforeAll(async () => {
    redisPort = await freePort()
    redis = await startRedis(redisPort)
    const env: Record<string, string> = {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      LOG_LEVEL: 'info',
      WORKERS: 'false',
    }
    if (onPostgres) {
      const database = await cloneTestDatabase()
      closeDatabase = () => database.close()
      env.DATABASE_URL = database.url!
    }
    server = await startServerProcess(env)
  })
  afterAll(async () => {
    server?.child.kill('SIGKILL')
    redis?.kill('SIGKILL')
    await closeDatabase()
  })

  it('hung, then killed: every request still answered (limited in-process), one warning per outage; back in Redis when it returns', async () => {
    const { base } = server!
    const reseller = async (name: string) => {
      const key = (await adminCall(base, 'POST', '/resellers', { name })).api_key as string
      return { key, bucket: `ratelimit:${crypto.createHash('sha256').update(key).digest('hex').slice(0, 32)}:*` }
    }
    const balance = async (key: string) => {
      const res = await fetch(`${base}/api/v1/balance`, { headers: { 'x-apikey': key }, signal: AbortSignal.timeout(5000) })
      const body = (await res.json()) as { message: string }
      return res.status === 200 ? 200 : `${res.status} ${body.message}`
    }
    const counted = async (bucket: string) => {
      const client = new Redis({ port: redisPort, host: '127.0.0.1', retryStrategy: () => null })
      try {
        // Summed over windows: a minute boundary between two reads must not lose the count.
        const keys = await client.keys(bucket)
        return keys.length === 0 ? 0 : (await client.mget(keys)).reduce((sum, n) => sum + Number(n), 0)
      } finally {
        client.disconnect()
      }
    }
    const [a, b, c] = [await reseller('redis a'), await reseller('redis b'), await reseller('redis c')]
    await awayFromWindowEdge(3000)

    // Up: the count lives in Redis (once the server's client has connected: a loaded machine may take a moment).
    await eventually(
      'the server counts in Redis',
      async () => {
        expect(await balance(a.key)).toBe(200)
        return counted(a.bucket)
      },
      (n) => n > 0,
      { timeoutMs: 30_000 },
    )
    // The outages' warnings are counted from here: on a loaded machine the server's first requests may
    // come before its client connected, which is not one of the outages below.
    const upFrom = server!.output().length
    const before = await counted(a.bucket)
    expect([await balance(a.key), await balance(a.key)]).toEqual([200, 200])
    expect(await counted(a.bucket)).toBe(before + 2)

    // Hung (SIGSTOP): answered all the same, after half a second at most.
    redis!.kill('SIGSTOP')
    try {
      for (let i = 0; i < 5; i++) expect(await balance(b.key)).toBe(200)
    } finally {
      redis!.kill('SIGCONT')
    }
    // Resumed: answered all along, and back to Redis once its second of back-off is over (the
    // server says so).
    const recoveries = () =>
      (
        server!
          .output()
          .slice(upFrom)
          .match(/Redis answers again/g) ?? []
      ).length
    await eventually(
      'the server counts in Redis again after SIGCONT',
      async () => {
        expect(await balance(b.key)).toBe(200)
        return recoveries()
      },
      (n) => n === 1,
      { timeoutMs: 30_000 },
    )
    expect(await balance(b.key)).toBe(200)
    expect(await counted(b.bucket)).toBeGreaterThanOrEqual(1)

    // Killed: every request answered, and the in-process counter still enforces the limit.
    redis!.kill('SIGKILL')
    await new Promise((resolve) => redis!.once('exit', resolve))
    await awayFromWindowEdge(5000)
    const answers = []
    for (let i = 0; i <= LIMIT; i++) answers.push(await balance(c.key))
    expect(answers.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200))
    expect(answers[LIMIT]).toBe('429 TOO_MANY_REQUESTS')

    // Back on the same port: counting returns to Redis by itself.
    redis = await startRedis(redisPort)
    await eventually(
      'counts went back to Redis',
      async () => {
        expect(await balance(a.key)).toBe(200)
        return counted(a.bucket)
      },
      (n) => n > 0,
      { timeoutMs: 30_000, intervalMs: 200 },
    )

    const output = server!.output()
    expect(output).not.toMatch(/Unhandled error event|uncaught/i)
    expect(output).not.toMatch(/"statusCode":5\d\d/)
    const outages = output.slice(upFrom)
    expect(outages.match(/Redis unavailable/g), outages).toHaveLength(2)
    expect(outages.match(/Redis answers again/g), outages).toHaveLength(2)
  })
})
