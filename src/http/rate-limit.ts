import { Redis } from 'ioredis'

export type RateDecision = { allowed: boolean; retryAfterSeconds: number }

/** Fixed one-minute windows per API key. */
export type RateLimiter = {
  hit(key: string): Promise<RateDecision>
  close(): Promise<void>
}

const WINDOW_MS = 60_000

function decide(count: number, limit: number, now: number): RateDecision {
  const windowEnd = (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS
  return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)) }
}

export function memoryRateLimiter(limit: number): RateLimiter {
  let window = -1
  let counts = new Map<string, number>()
  return {
    async hit(key) {
      const now = Date.now()
      const current = Math.floor(now / WINDOW_MS)
      if (current !== window) {
        window = current
        counts = new Map()
      }
      const count = (counts.get(key) ?? 0) + 1
      counts.set(key, count)
      return decide(count, limit, now)
    },
    async close() {},
  }
}

/** Shared counters for several API processes. */
export function redisRateLimiter(url: string, limit: number): RateLimiter {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true })
  return {
    async hit(key) {
      const now = Date.now()
      const bucket = `ratelimit:${key}:${Math.floor(now / WINDOW_MS)}`
      const [[, count]] = (await redis.multi().incr(bucket).pexpire(bucket, WINDOW_MS * 2).exec()) as [[unknown, number]]
      return decide(count, limit, now)
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
