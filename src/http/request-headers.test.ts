import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/app.js'
import { createReseller } from '../../test/factory.js'

const { app } = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' })

describe('X-Request-Id', () => {
  it('echoes a sane caller id, replaces an unusable one, and names every answer, errors included', async () => {
    const mine = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'shop-7f3a:42' } })
    expect(mine.headers['x-request-id']).toBe('shop-7f3a:42')
    for (const given of [undefined, 'x'.repeat(200), 'two words', '']) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/nowhere', headers: given === undefined ? {} : { 'x-request-id': given } })
      expect(res.statusCode).toBe(404)
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
    const a = await app.inject({ method: 'GET', url: '/api/v1/balance' })
    const b = await app.inject({ method: 'GET', url: '/api/v1/balance' })
    expect(a.statusCode).toBe(401)
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id'])
  })
})

describe('RateLimit headers', () => {
  it('count down within the window and come with Retry-After on the 429', async () => {
    const r = await createReseller(app)
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await app.inject({ method: 'GET', url: '/api/v1/balance', headers: r.headers }))
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429])
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0'])
    for (const a of answers) {
      expect(a.headers['ratelimit-limit']).toBe('3')
      expect(Number(a.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1)
      expect(Number(a.headers['ratelimit-reset'])).toBeLessThanOrEqual(60)
    }
    expect(answers[3].headers['retry-after']).toBe(answers[3].headers['ratelimit-reset'])
  })
})
