import { Redis } from 'ioredis'

/** What the windows are read from: the context's clock (tests pin it, so a count never straddles a minute's end). */
type Clock = { now(): Date }

export type RateDecision = { allowed: boolean; retryAfterSeconds: number; limit: number; remaining: number }

/** Where warnings go: the request's logger (pino's signature). */
type Log = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }

/** Counts per key in fixed one-minute windows, shared by every limiter of the process. */
export type CounterStore = {
  /** Adds one to the key's count in the window numbered `window` and answers the new count. */
  increment(key: string, window: number, log?: Log): Promise<number>
  close(): Promise<void>
}

/** A limit per key and minute: hit() counts one and decides. */
export type RateLimiter = {
  hit(key: string, log?: Log): Promise<RateDecision>
}

const WINDOW_MS = 60_000

const windowOf = (now: number) => Math.floor(now / WINDOW_MS)

function decide(allowed: boolean, now: number, limit: number, used: number): RateDecision {
  const windowEnd = (windowOf(now) + 1) * WINDOW_MS
  return { allowed, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)), limit, remaining: Math.max(0, limit - used) }
}

/** The IETF draft's RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers): the limit, what is left, seconds to the window's end. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.retryAfterSeconds),
  }
}

/** `name` keeps limiters apart in one store (`ratelimit` per API key, `authfail` per address). */
export function rateLimiter(store: CounterStore, name: string, limit: number, clock: Clock): RateLimiter {
  return {
    async hit(key, log) {
      const now = clock.now().getTime()
      const used = await store.increment(`${name}:${key}`, windowOf(now), log)
      return decide(used <= limit, now, limit, used)
    },
  }
}

export function memoryCounterStore(): CounterStore {
  let current = -1
  let counts = new Map<string, number>()
  return {
    async increment(key, window) {
      // Counts of one window at a time: a later window starts afresh.
      if (window > current) {
        current = window
        counts = new Map()
      }
      const count = (counts.get(key) ?? 0) + 1
      counts.set(key, count)
      return count
    },
    async close() {},
  }
}

/**
 * Shared counters in Redis for several API processes. While Redis is down or slow the counts fail
 * open to this process's own counters (one warning), and go back to Redis once it answers again.
 */
export function redisCounterStore(url: string): CounterStore {
  const redis = new Redis(url, {
    // A command fails at once while disconnected, and within half a second when Redis hangs.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
  // Reconnection is ioredis's business; an unhandled 'error' event would end the process.
  redis.on('error', () => {})
  // The first requests wait for the first connection attempt (a second at most) rather than count locally.
  const firstAttempt = new Promise<void>((resolve) => {
    for (const event of ['ready', 'error', 'end']) redis.once(event, () => resolve())
    setTimeout(resolve, 1000).unref()
  })
  const fallback = memoryCounterStore()
  let degraded = false
  // After a failed command a hung Redis is not waited on again (commandTimeout) for a second.
  let retryAt = 0
  const unavailable = (err: unknown, log?: Log) => {
    if (!degraded) log?.warn({ err }, 'rate limit: Redis unavailable, counting in this process until it returns')
    degraded = true
  }
  const inRedis = async <T>(run: () => Promise<T>, otherwise: () => Promise<T>, log?: Log): Promise<T> => {
    await firstAttempt
    if (redis.status !== 'ready' || Date.now() < retryAt) {
      unavailable(new Error(`Redis connection is ${redis.status}`), log)
      return otherwise()
    }
    try {
      const value = await run()
      if (degraded) log?.info({}, 'rate limit: Redis answers again, counting there')
      degraded = false
      return value
    } catch (err) {
      retryAt = Date.now() + 1000
      unavailable(err, log)
      return otherwise()
    }
  }
  return {
    increment(key, window, log) {
      const name = `${key}:${window}`
      const run = async () => {
        const [[, count]] = (await redis
          .multi()
          .incr(name)
          .pexpire(name, WINDOW_MS * 2)
          .exec()) as [[unknown, number]]
        return count
      }
      return inRedis(run, () => fallback.increment(key, window), log)
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
