import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../test/app.js'
import { createReseller } from '../../test/factory.js'

// Apps are made at the top: createTestApp closes them in an afterAll, which only a file's top level registers.
const local = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' })
const REDIS_URL = 'redis://127.0.0.1:6379'
const shared = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3', REDIS_URL })
const sharedSibling = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3', REDIS_URL })

// Windows are fixed minutes: starting just before a boundary would reset the counter mid-test.
async function awayFromWindowEdge() {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 3000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

/** A documentation-range address of its own per run: the Redis store is shared with other test runs. */
const someAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`

/** Counts the authentication lookups the database receives. */
function countLookups(target: TestApp) {
  const lookups = { n: 0 }
  const original = target.ctx.prepared
  target.ctx.prepared = (name, text, values) => {
    if (name === 'authenticate') lookups.n++
    return original(name, text, values)
  }
  return lookups
}

const balance = (target: TestApp, key: string, remoteAddress: string) =>
  target.app.inject({ url: '/api/v1/balance', headers: { 'x-apikey': key }, remoteAddress })

describe('failed authentications per client address', () => {
  it('after the limit of unknown keys, answers 429 with Retry-After without asking the database', async () => {
    const lookups = countLookups(local)
    const valid = await createReseller(local.app, { balance: 5 })
    const cached = await createReseller(local.app, { balance: 6 })
    const address = someAddress()
    await awayFromWindowEdge()
    // Authenticated once: in the auth cache, so it costs the database nothing.
    expect((await balance(local, cached.apiKey, address)).statusCode).toBe(200)

    for (let i = 0; i < 3; i++) {
      const res = await balance(local, `rk_guess_${i}`, address)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: 'INVALID_API_KEY' })
    }
    const before = lookups.n
    for (const key of ['rk_guess_4', 'rk_guess_5', valid.apiKey]) {
      const res = await balance(local, key, address)
      expect(res.statusCode, key).toBe(429)
      expect(res.json()).toEqual({ message: 'TOO_MANY_REQUESTS' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60)
    }
    expect(lookups.n).toBe(before)

    // A key already known answers without a lookup, and another address is not affected.
    expect((await balance(local, cached.apiKey, address)).json()).toEqual({ message: 'OK', data: { balance: 6 } })
    expect((await balance(local, 'rk_guess_6', someAddress().replace('198.51.100', '203.0.113'))).statusCode).toBe(401)
    expect((await balance(local, valid.apiKey, '192.0.2.9')).json()).toEqual({ message: 'OK', data: { balance: 5 } })
  })

  it('counts in Redis when REDIS_URL is set, so every process refuses the address', async () => {
    const address = someAddress()
    await awayFromWindowEdge()
    for (let i = 0; i < 3; i++) expect((await balance(shared, `rk_guess_${i}`, address)).statusCode).toBe(401)
    const redis = new Redis(REDIS_URL)
    try {
      const [bucket] = await redis.keys(`authfail:${address}:*`)
      expect(Number(await redis.get(bucket))).toBe(3)
    } finally {
      redis.disconnect()
    }
    const refused = await balance(sharedSibling, 'rk_guess_elsewhere', address)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({ message: 'TOO_MANY_REQUESTS' })
  })
})
