import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { createSiblingApp, createTestApp } from '../../../test/app.js'
import { minuteClock } from '../../../test/eventually.js'
import { onPostgres } from '../../../test/database.js'
import { eventually } from '../../../test/eventually.js'
import { watchAccountChanges } from './account-changes.js'
import { admin, createReseller, get, type Reseller } from '../../../test/factory.js'
import type { Database } from '../../db/database.js'
import type { App } from '../../http/server.js'

// Apps are made at the top: createTestApp closes them in an afterAll, which only a file's top level registers.
const { app } = await createTestApp()
const proxied = await createTestApp({ TRUST_PROXY: '127.0.0.1' })

const balanceWith = (target: App, headers: Record<string, string>, remoteAddress?: string) =>
  target.inject({ method: 'GET', url: '/api/v1/balance', headers, remoteAddress })

async function patchAccount(target: App, id: number, body: object) {
  return target.inject({
    method: 'PATCH',
    url: `/api/admin/v1/resellers/${id}`,
    headers: { authorization: 'Bearer test-admin-token-0123456789' },
    payload: body,
  })
}

describe('X-APIKEY', () => {
  it('answers 401 INVALID_API_KEY for a missing, empty or unknown key, saying which', async () => {
    const missing = 'missing: send your API key in the X-APIKEY header'
    const unknown = 'unknown or revoked: check the key, or ask your operator for a new one'
    for (const [headers, sentence] of [
      [{}, missing],
      [{ 'x-apikey': '' }, missing],
      [{ authorization: 'Bearer rk_somekey' }, `${missing}, not in Authorization`],
      [{ 'x-apikey': 'rk_unknown' }, unknown],
      [{ 'x-apikey': 'x'.repeat(300) }, unknown],
    ] as [Record<string, string>, string][]) {
      const res = await balanceWith(app, headers)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ message: 'INVALID_API_KEY', errors: { 'X-APIKEY': [sentence] } })
    }
  })

  it('accepts a fresh key and reaches the account it belongs to', async () => {
    const r = await createReseller(app, { balance: 4321 })
    const res = await get(app, '/balance', r)
    expect(res.json()).toEqual({ message: 'OK', data: { balance: 4321 } })
  })

  it('rotation: the new key works, the old one is refused at once', async () => {
    const r = await createReseller(app, { balance: 700 })
    const rotated = await admin(app, 'POST', `/resellers/${r.id}/api-keys`)
    expect(rotated.id).toBe(r.id)
    expect(rotated.api_key).toMatch(/^rk_[\w-]{43}$/)
    expect(rotated.api_key).not.toBe(r.apiKey)
    expect((await balanceWith(app, { 'x-apikey': rotated.api_key })).json().data.balance).toBe(700)
    const old = await get(app, '/balance', r)
    expect(old.statusCode).toBe(401)
    expect(old.json().message).toBe('INVALID_API_KEY')
  })

  it('rotating an unknown account answers 404 ACCOUNT_NOT_FOUND', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers/999999/api-keys',
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })
  })

  it('suspension answers 403 THE_ACCOUNT_HAS_BEEN_SUSPENDED, reactivation lets the key in again', async () => {
    const r = await createReseller(app, { balance: 100 })
    expect((await patchAccount(app, r.id, { status: 'suspended' })).json().data.status).toBe('suspended')
    const refused = await get(app, '/balance', r)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ message: 'THE_ACCOUNT_HAS_BEEN_SUSPENDED' })
    expect((await patchAccount(app, r.id, { status: 'active' })).json().data.status).toBe('active')
    expect((await get(app, '/balance', r)).json()).toEqual({ message: 'OK', data: { balance: 100 } })
  })
})

describe('IP allow-list', () => {
  it('admits only listed callers, by exact address and by CIDR', async () => {
    const r = await createReseller(app)
    const res = await patchAccount(app, r.id, { ip_allowlist: ['203.0.113.7', '10.1.2.0/24', '2001:db8::/32'] })
    expect(res.json().data.ip_allowlist).toEqual(['203.0.113.7', '10.1.2.0/24', '2001:db8::/32'])

    for (const allowed of ['203.0.113.7', '10.1.2.200', '::ffff:10.1.2.3', '2001:db8::1']) {
      expect((await balanceWith(app, r.headers, allowed)).statusCode, allowed).toBe(200)
    }
    for (const refused of ['203.0.113.8', '10.1.3.1', '127.0.0.1', '2001:db9::1']) {
      const answer = await balanceWith(app, r.headers, refused)
      expect(answer.statusCode, refused).toBe(401)
      expect(answer.json()).toEqual({ message: 'INVALID_IP' })
    }
    // An empty list lifts the restriction.
    await patchAccount(app, r.id, { ip_allowlist: [] })
    expect((await balanceWith(app, r.headers, '198.51.100.1')).statusCode).toBe(200)
  })

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const r = await createReseller(app)
    await patchAccount(app, r.id, { ip_allowlist: ['203.0.113.7'] })
    const res = await balanceWith(app, { ...r.headers, 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1')
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: 'INVALID_IP' })
  })

  it('with TRUST_PROXY checks the X-Forwarded-For address, only from a trusted proxy', async () => {
    const r = await createReseller(proxied.app)
    await patchAccount(proxied.app, r.id, { ip_allowlist: ['203.0.113.7'] })
    const via = (xff: string, remote = '127.0.0.1') => balanceWith(proxied.app, { ...r.headers, 'x-forwarded-for': xff }, remote)

    expect((await via('203.0.113.7')).statusCode).toBe(200)
    expect((await via('198.51.100.1')).json()).toEqual({ message: 'INVALID_IP' })
    // The proxy's own address is not the caller's.
    expect((await balanceWith(proxied.app, r.headers, '127.0.0.1')).json()).toEqual({ message: 'INVALID_IP' })
    // A header sent by an untrusted peer is not believed.
    expect((await via('203.0.113.7', '198.51.100.9')).json()).toEqual({ message: 'INVALID_IP' })
  })

  it('refuses a bad entry with 422 naming its index and keeps the old list', async () => {
    const r = await createReseller(app)
    await patchAccount(app, r.id, { ip_allowlist: ['10.0.0.1'] })
    for (const [list, field] of [
      [['10.0.0.2', 'not-an-ip'], 'ip_allowlist.1'],
      [['10.0.0.0/33'], 'ip_allowlist.0'],
      [['10.0.0.1', '::1', '1.2.3.4/8/9'], 'ip_allowlist.2'],
    ] as const) {
      const res = await patchAccount(app, r.id, { ip_allowlist: list })
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { [field]: ['must be an IP address or CIDR'] } })
    }
    expect((await admin(app, 'GET', `/resellers/${r.id}`)).ip_allowlist).toEqual(['10.0.0.1'])
  })
})

/** Fires `count` requests one after another and answers their status codes. */
async function hits(target: App, r: Reseller, count: number) {
  const answers = []
  for (let i = 0; i < count; i++) answers.push(await get(target, '/balance', r))
  return answers
}

/** The shared counter really lives in Redis (not in the process). */
async function expectCountInRedis(url: string, db: Database, accountId: number, count: number) {
  const key = await db.selectFrom('api_keys').select('key_hash').where('account_id', '=', accountId).executeTakeFirstOrThrow()
  const redis = new Redis(url)
  try {
    const buckets = await redis.keys(`ratelimit:${key.key_hash.slice(0, 32)}:*`)
    expect(buckets).toHaveLength(1)
    expect(Number(await redis.get(buckets[0]))).toBe(count)
  } finally {
    redis.disconnect()
  }
}

async function rateLimitSuite(name: string, env: Record<string, string>) {
  // Windows are fixed minutes of the app's clock, which stays in its minute: no count straddles two.
  const clock = minuteClock()
  const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', ...env }, {}, { clock })
  describe(name, () => {
    it('answers the 4th request within a minute with 429 and a numeric Retry-After, per key', async () => {
      const a = await createReseller(limited.app)
      const b = await createReseller(limited.app)

      const answers = await hits(limited.app, a, 4)
      expect(answers.map((x) => x.statusCode)).toEqual([200, 200, 200, 429])
      const refused = answers[3]
      expect(refused.json()).toEqual({ message: 'TOO_MANY_REQUESTS' })
      const retryAfter = refused.headers['retry-after']
      expect(retryAfter).toMatch(/^\d+$/)
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(retryAfter)).toBeLessThanOrEqual(60)
      if (env.REDIS_URL) await expectCountInRedis(env.REDIS_URL, limited.ctx.db, a.id, 4)

      // Another account has its own budget.
      expect((await hits(limited.app, b, 3)).map((x) => x.statusCode)).toEqual([200, 200, 200])
      expect((await get(limited.app, '/balance', b)).statusCode).toBe(429)
    })

    it('does not count refused keys or admin calls against an account', async () => {
      const c = await createReseller(limited.app)
      for (let i = 0; i < 5; i++) expect((await balanceWith(limited.app, { 'x-apikey': 'rk_nope' })).statusCode).toBe(401)
      for (let i = 0; i < 5; i++) await admin(limited.app, 'GET', `/resellers/${c.id}`)
      expect((await hits(limited.app, c, 4)).map((x) => x.statusCode)).toEqual([200, 200, 200, 429])
      // The next minute is a new window: served again.
      clock.advance(60_000)
      expect((await get(limited.app, '/balance', c)).statusCode).toBe(200)
    })
  })
}

await rateLimitSuite('rate limit (in-process)', {})
await rateLimitSuite('rate limit (Redis)', { REDIS_URL: 'redis://127.0.0.1:6379' })

describe('changes made by another process', () => {
  // Authentication is cached for a few seconds; NOTIFY makes every process forget a changed account.
  it.skipIf(!onPostgres)('a key rotated elsewhere stops working here on its NOTIFY, not at the cache TTL (PostgreSQL)', async () => {
    const here = await createTestApp()
    const elsewhere = await createSiblingApp(here.databaseUrl!)
    const stopWatching = await watchAccountChanges(here.ctx)
    // What this process's cache is told to forget: here changes nothing, so only a NOTIFY can.
    const forgotten: number[] = []
    const forget = here.ctx.authCache.forgetAccount
    here.ctx.authCache.forgetAccount = (id) => (forgotten.push(id), forget(id))
    try {
      const r = await createReseller(here.app)
      expect((await get(here.app, '/balance', r)).statusCode).toBe(200)
      const cached = await here.ctx.db.selectFrom('api_keys').select('key_hash').where('account_id', '=', r.id).executeTakeFirstOrThrow()
      expect(here.ctx.authCache.get(cached.key_hash), 'the key is cached here').toBeDefined()
      await admin(elsewhere.app, 'POST', `/resellers/${r.id}/api-keys`)
      await eventually(
        'the NOTIFY made this process forget the account',
        () => forgotten,
        (ids) => ids.includes(r.id),
      )
      // The cache no longer holds the old key although its entry had seconds of TTL left.
      expect(here.ctx.authCache.get(cached.key_hash)).toBeUndefined()
      expect((await get(here.app, '/balance', r)).statusCode).toBe(401)
    } finally {
      await stopWatching()
      await elsewhere.close()
      await here.close()
    }
  })
})
