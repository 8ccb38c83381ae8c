import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../test/app.js'
import { visitor } from '../../test/console.js'
import { createReseller } from '../../test/factory.js'
import { minuteClock } from '../../test/eventually.js'

// The limits count in fixed one-minute windows of the apps' clock: one that stays in its minute keeps
// every count of a test in one window (the two Redis apps share it, as two processes share time).
const clock = minuteClock()
// Apps are made at the top: createTestApp closes them in an afterAll, which only a file's top level registers.
const local = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock })
const operatorSide = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' }, {}, { clock })
const REDIS_URL = 'redis://127.0.0.1:6379'
const shared = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3', REDIS_URL }, {}, { clock })
const sharedSibling = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3', REDIS_URL }, {}, { clock })

/** A documentation-range address of its own per call: the Redis store is shared with other test runs. */
const someAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`

const balance = (target: TestApp, key: string, remoteAddress: string) =>
  target.app.inject({ url: '/api/v1/balance', headers: { 'x-apikey': key }, remoteAddress })

const asOperator = (target: TestApp, url: string, token: string, remoteAddress: string) =>
  target.app.inject({ url, headers: { authorization: `Bearer ${token}` }, remoteAddress })

function expectTooMany(res: Awaited<ReturnType<TestApp['app']['inject']>>, label: string) {
  expect(res.statusCode, label).toBe(429)
  expect(res.json()).toEqual({ message: 'TOO_MANY_REQUESTS' })
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60)
}

describe('failed authentications per client address', () => {
  it('past the limit of unknown keys answers 429, while a valid key from the same address is served', async () => {
    const valid = await createReseller(local.app, { balance: 5 })
    const address = someAddress()
    for (let i = 0; i < 3; i++) {
      const res = await balance(local, `rk_guess_${i}`, address)
      expect(res.statusCode).toBe(401)
      expect(res.json().message).toBe('INVALID_API_KEY')
    }
    for (const key of ['rk_guess_4', 'rk_guess_5']) expectTooMany(await balance(local, key, address), key)
    // Never authenticated before (not cached): it is still looked up and served.
    expect((await balance(local, valid.apiKey, address)).json()).toEqual({ message: 'OK', data: { balance: 5 } })
    expectTooMany(await balance(local, 'rk_guess_6', address), 'a guess after the valid key')
    // Another address is not affected; a missing header is no guess and is not counted.
    expect((await balance(local, 'rk_guess_7', '192.0.2.9')).statusCode).toBe(401)
    const fresh = someAddress().replace('198.51.100', '203.0.113')
    for (let i = 0; i < 5; i++) expect((await local.app.inject({ url: '/api/v1/balance', remoteAddress: fresh })).statusCode).toBe(401)
    expect((await balance(local, 'rk_guess_8', fresh)).statusCode).toBe(401)
  })

  it('limits wrong admin tokens on the operator API and /metrics, and the right token is always served', async () => {
    const address = someAddress()
    expect((await asOperator(operatorSide, '/api/admin/v1/resellers', 'wrong-1', address)).statusCode).toBe(401)
    expect((await asOperator(operatorSide, '/metrics', 'wrong-2', address)).statusCode).toBe(401)
    expect((await asOperator(operatorSide, '/api/admin/v1/overview', 'wrong-3', address)).statusCode).toBe(401)
    expectTooMany(await asOperator(operatorSide, '/api/admin/v1/resellers', 'wrong-4', address), 'operator API')
    expectTooMany(await asOperator(operatorSide, '/metrics', 'wrong-5', address), '/metrics')
    expect((await asOperator(operatorSide, '/api/admin/v1/resellers', ADMIN_TOKEN, address)).statusCode).toBe(200)
    expect((await asOperator(operatorSide, '/metrics', ADMIN_TOKEN, address)).statusCode).toBe(200)
    // The console sign-in shares the address's budget: a guess there is refused too, the right token signs in.
    const browser = visitor(operatorSide.app)
    await browser.get('/console/sign-in')
    const inject = operatorSide.app.inject.bind(operatorSide.app)
    const signIn = (token: string) =>
      inject({
        method: 'POST',
        url: '/console/sign-in',
        remoteAddress: address,
        headers: {
          cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ _csrf: browser.csrf, token }).toString(),
      })
    expect((await signIn('not-the-token')).statusCode).toBe(429)
    const right = await signIn(ADMIN_TOKEN)
    expect([right.statusCode, right.headers.location]).toEqual([303, '/console'])
  })

  it('counts console sign-in failures and API key failures together', async () => {
    const browser = visitor(local.app)
    await browser.get('/console/sign-in')
    // The visitor signs in from 127.0.0.1, inject's default address.
    expect((await browser.post('/console/sign-in', { token: 'guess-a' })).status).toBe(401)
    expect((await balance(local, 'rk_guess_a', '127.0.0.1')).statusCode).toBe(401)
    expect((await browser.post('/console/sign-in', { token: 'guess-b' })).status).toBe(401)
    expect((await browser.post('/console/sign-in', { token: 'guess-c' })).status).toBe(429)
    expectTooMany(await balance(local, 'rk_guess_b', '127.0.0.1'), 'an API key after console guesses')
  })

  it('counts in Redis when REDIS_URL is set, so every process refuses the address', async () => {
    const address = someAddress()
    for (let i = 0; i < 3; i++) expect((await balance(shared, `rk_guess_${i}`, address)).statusCode).toBe(401)
    const redis = new Redis(REDIS_URL)
    try {
      const [bucket] = await redis.keys(`authfail:${address}:*`)
      expect(Number(await redis.get(bucket))).toBe(3)
    } finally {
      redis.disconnect()
    }
    expectTooMany(await balance(sharedSibling, 'rk_guess_elsewhere', address), 'the sibling process')
    expectTooMany(await asOperator(sharedSibling, '/api/admin/v1/resellers', 'wrong', address), 'the sibling operator API')
  })
})
