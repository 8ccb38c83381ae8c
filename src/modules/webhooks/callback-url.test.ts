import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { createReseller, get, type Reseller } from '../../../test/factory.js'
import { startReceiver } from '../../../test/receiver.js'

// docs/design.md §8: a callback_url is delivered to exactly as shown, so what the URL parser would
// silently drop or rewrite (whitespace, control characters, backslashes) is refused, never stored.
const { app, ctx } = await createTestApp()

const put = (r: Reseller, callback_url: unknown) =>
  app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url } })
const operatorPut = (r: Reseller, callback_url: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/v1/resellers/${r.id}/webhook`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { callback_url },
  })
const storedUrl = async (r: Reseller) => (await get(app, '/webhook', r)).json().data.callback_url

const WITH_WHITESPACE_OR_CONTROLS = [
  'http://127.0.0.1:9/ok/a\r\nX-Injected: 1\tB',
  'https://shop.example/a b',
  'https://shop.example/h\n',
  ' https://shop.example/h',
  'https://shop.example/h\t',
  'https://shop.example/\r',
  'https://shop.example/\u001b[0m',
  'https://shop.example/\u007f',
  'https://shop.example/\u0085',
  'https://shop.example/\u009b',
  'https://shop.example/\u00a0',
  'https://shop.example/\u2028',
  'https://shop.example/\u3000',
  'https://shop\u200b.example/h',
  'https://shop.example/\ufeff',
  '   ',
]

describe('callback_url characters', () => {
  it('PUT /api/v1/webhook refuses whitespace and control characters anywhere, saying how to fix it, and stores nothing', async () => {
    const r = await createReseller(app)
    expect((await put(r, 'https://shop.example/kept')).statusCode).toBe(200)
    for (const url of WITH_WHITESPACE_OR_CONTROLS) {
      const res = await put(r, url)
      expect(res.statusCode, JSON.stringify(url)).toBe(422)
      expect(res.json(), JSON.stringify(url)).toEqual({
        message: 'VALIDATION_ERROR',
        errors: { callback_url: [expect.stringMatching(/must not contain spaces or control characters.*percent-encode/)] },
      })
    }
    // NUL is refused for every text field before the URL rule sees it (http/validators.ts).
    for (const url of ['https://shop.example/\u0000', '\u0000https://shop.example/h']) {
      const res = await put(r, url)
      expect([res.statusCode, Object.keys(res.json().errors)], JSON.stringify(url)).toEqual([422, ['callback_url']])
    }
    expect(await storedUrl(r)).toBe('https://shop.example/kept')
  })

  it('refuses backslashes and a user name or password, each with its own sentence', async () => {
    const r = await createReseller(app)
    for (const url of ['https://shop.example\\@evil.example/h', 'https://shop.example/a\\b', 'http://localhost\\h']) {
      const res = await put(r, url)
      expect(res.statusCode, url).toBe(422)
      expect(res.json().errors.callback_url, url).toEqual([expect.stringContaining('backslash')])
    }
    for (const url of [
      'https://user:pass@shop.example/h',
      'https://user@shop.example/h',
      'https://:@shop.example/h',
      'https://@shop.example/h',
      'https:user:pass@shop.example/h',
      'http://user:pass@127.0.0.1:9/h',
    ]) {
      const res = await put(r, url)
      expect(res.statusCode, url).toBe(422)
      expect(res.json().errors.callback_url, url).toEqual([expect.stringMatching(/user name or password.*in clear/)])
    }
    expect(await storedUrl(r)).toBeNull()
  })

  it('the operator route applies the same rule', async () => {
    const r = await createReseller(app)
    for (const url of ['http://127.0.0.1:9/ok/a\r\nX-Injected: 1\tB', 'https://user:pass@shop.example/h', 'https://shop.example\\h']) {
      const res = await operatorPut(r, url)
      expect(res.statusCode, JSON.stringify(url)).toBe(422)
      expect(Object.keys(res.json().errors)).toEqual(['callback_url'])
    }
    expect(await storedUrl(r)).toBeNull()
    expect((await operatorPut(r, 'https://shop.example/hooks?a=%20b')).statusCode).toBe(200)
  })

  it('keeps what worked: percent-encoded characters, @ past the host, and clearing with null or ""', async () => {
    const r = await createReseller(app)
    for (const url of [
      'https://shop.example/hooks?a=%20b%0D%0A',
      'http://127.0.0.1:9/ok/a%09b',
      'https://shop.example/h/@me?mail=a@b.example',
      'https://tokó.example/hooks',
      'https://shop.example:8443/h',
    ]) {
      const res = await put(r, url)
      expect(res.statusCode, url).toBe(200)
      expect(res.json().data.callback_url).toBe(url)
    }
    for (const cleared of [null, '']) expect((await put(r, cleared)).json().data.callback_url).toBeNull()
  })

  it('a URL stored before the rule is not sent to a rewritten address', async () => {
    const receiver = await startReceiver()
    const r = await createReseller(app)
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    await ctx.db
      .updateTable('webhook_settings')
      .set({ callback_url: `${receiver.url}/a\r\nX-Injected: 1\tB` })
      .where('account_id', '=', r.id)
      .execute()
    const outcome = (await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })).json().data
    expect(outcome).toMatchObject({ delivered: false, status_code: null, error: 'callback URL contains whitespace or control characters' })
    expect(receiver.received).toHaveLength(0)
  })
})
