import { execFile } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, APP_KEY, createTestApp } from '../../test/app.js'
import { createAutoItem, createReseller, get } from '../../test/factory.js'
import { balanceOf } from '../../test/factory-orders.js'
import { assertInvariants } from '../../test/invariants.js'
import { COMMANDS, parseArgs } from '../cli/commands.js'

const { app, ctx } = await createTestApp()
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }
const r = await createReseller(app, { balance: 1_000_000 })
const item = await createAutoItem(app, 10, { price: 1_000 })

const buyRaw = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/trx', headers: r.headers, payload })
const orderCount = async () =>
  (
    await ctx.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n
const fieldsOf = (res: { json(): any }) => Object.keys(res.json().errors ?? {}).sort()

describe('JSON bodies are typed strictly (docs/design.md §3)', () => {
  it.each([
    ['quantity true', { ref_id: 's-1', carts: [{ item_id: 0, quantity: true }] }, ['carts.0.quantity']],
    // Digits are taken (lenient-input.test.ts); a decimal point or a sign is not.
    ['quantity "2.0"', { ref_id: 's-2', carts: [{ item_id: 0, quantity: '2.0' }] }, ['carts.0.quantity']],
    ['item_id "+1"', { ref_id: 's-3', carts: [{ item_id: '+0', quantity: 1 }] }, ['carts.0.item_id']],
    ['ref_id 123', { ref_id: 123, carts: [{ item_id: 0, quantity: 1 }] }, ['ref_id']],
    ['ref_id true', { ref_id: true, carts: [{ item_id: 0, quantity: 1 }] }, ['ref_id']],
    ['quantity 1.5', { ref_id: 's-6', carts: [{ item_id: 0, quantity: 1.5 }] }, ['carts.0.quantity']],
    ['lock_token 5', { ref_id: 's-7', carts: [{ item_id: 0, quantity: 1 }], lock_token: 5 }, ['lock_token']],
  ])('refuses %s on POST /v1/trx with 422 naming the field, and charges nothing', async (_label, body, fields) => {
    const payload = JSON.parse(
      JSON.stringify(body).replace('"item_id":0', `"item_id":${item.id}`).replace('"item_id":"+0"', `"item_id":"+${item.id}"`),
    )
    const res = await buyRaw(payload)
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe('VALIDATION_ERROR')
    expect(fieldsOf(res)).toEqual(fields)
    expect(await balanceOf(app, r)).toBe(1_000_000)
    expect(await orderCount()).toBe(0)
  })

  it('still takes a null lock_token (a nullable union) and a well-typed purchase', async () => {
    const res = await buyRaw({ ref_id: 'typed-1', carts: [{ item_id: item.id, quantity: 2 }], lock_token: null })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.amount).toBe(2_000)
    await assertInvariants(ctx.db)
  })

  it('refuses wrong types on the sandbox, lock and operator bodies, and still fills defaults', async () => {
    const cases: [string, string, object, Record<string, string>, string[]][] = [
      ['POST', '/api/v1/order/sandbox', { ref_id: 'sb-1', item_id: item.id, quantity: true }, r.headers, ['quantity']],
      ['POST', '/api/v1/item/lock', { item_id: item.id, quantity: '1 ' }, r.headers, ['quantity']],
      ['POST', '/api/v1/item/lock', { item_id: item.id, quantity: 1, lock_duration: '6e1' }, r.headers, ['lock_duration']],
      ['PATCH', `/api/admin/v1/resellers/${r.id}`, { max_active_locks: '5', status: true }, adminHeaders, ['max_active_locks', 'status']],
      ['POST', `/api/admin/v1/resellers/${r.id}/balance`, { amount: '5000', reason: 'typed' }, adminHeaders, ['amount']],
      [
        'POST',
        '/api/admin/v1/items',
        { product_name: 'P', name: 'N', price: '1000', order_process: 'manual', active: 'true' },
        adminHeaders,
        ['active', 'price'],
      ],
      ['PATCH', `/api/admin/v1/items/${item.id}`, { price: null, unlimited_stock: 1 }, adminHeaders, ['price', 'unlimited_stock']],
    ]
    for (const [method, url, payload, headers, fields] of cases) {
      const res = await app.inject({ method: method as 'POST', url, headers, payload })
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(422)
      expect(res.json().message).toBe('VALIDATION_ERROR')
      expect(fieldsOf(res), url).toEqual(fields)
    }
    expect(await balanceOf(app, r)).toBe(998_000)
    // useDefaults still applies to a body: an absent lock_duration is 600 s.
    const lock = await app.inject({
      method: 'POST',
      url: '/api/v1/item/lock',
      headers: r.headers,
      payload: { item_id: item.id, quantity: 1 },
    })
    expect(lock.statusCode).toBe(201)
    const { locked_at, expires_at } = lock.json().data
    expect(Date.parse(expires_at) - Date.parse(locked_at)).toBe(600_000)
  })

  it('still parses numbers from query strings and path parameters', async () => {
    const list = await get(app, '/trx?page=1&per_page=5', r)
    expect(list.statusCode).toBe(200)
    expect(list.json().meta).toMatchObject({ page: 1, per_page: 5 })
    expect((await get(app, `/item/${item.id}`, r)).json().data.id).toBe(item.id)
    expect((await get(app, '/item?per_page=all', r)).statusCode).toBe(200)
    const bad = await get(app, '/balance/mutations?per_page=many', r)
    expect([bad.statusCode, fieldsOf(bad)]).toEqual([422, ['per_page']])
    const admin = await app.inject({ url: `/api/admin/v1/transactions?account_id=${r.id}&per_page=2`, headers: adminHeaders })
    expect(admin.json().meta.per_page).toBe(2)
  })
})

describe('odd inputs answer in the house shape, never 5xx, never an echo', () => {
  it('answers 422 on updated_since for a leap second or an impossible date, and takes a bare date as midnight UTC', async () => {
    for (const since of ['2026-06-30T23:59:60Z', '2026-02-30T00:00:00Z', '2026-13-01', 'yesterday']) {
      const res = await get(app, `/item?updated_since=${encodeURIComponent(since)}`, r)
      expect(res.statusCode, since).toBe(422)
      expect(res.json().message).toBe('VALIDATION_ERROR')
      expect(fieldsOf(res)).toEqual(['updated_since'])
    }
    const day = await get(app, '/item?updated_since=2000-01-01', r)
    expect(day.statusCode).toBe(200)
    expect(day.json().meta).toMatchObject({ is_delta: true, total_items: 1 })
    const future = await get(app, '/item?updated_since=2999-06-30', r)
    expect(future.json().meta).toMatchObject({ is_delta: true, total_items: 0 })
    expect((await get(app, '/item?updated_since=0001-01-01T00:00:00Z', r)).statusCode).toBe(200)
  })

  it('answers 422 naming a query or path number too large to be finite, not a database error blaming the body', async () => {
    for (const [url, field] of [
      ['/trx?page=1e400', 'page'],
      ['/item?per_page=1e400', 'per_page'],
      ['/item/1e400', 'id'],
      ['/balance/mutations?page=-1e400', 'page'],
    ]) {
      const res = await get(app, url, r)
      expect([res.statusCode, res.json().message, fieldsOf(res)], url).toEqual([422, 'VALIDATION_ERROR', [field]])
    }
    const body = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: { ...r.headers, 'content-type': 'application/json' },
      payload: `{"ref_id":"inf","item_id":${item.id},"quantity":1e400}`,
    })
    expect([body.statusCode, fieldsOf(body)]).toEqual([422, ['quantity']])
  })

  it('answers 404 NOT_FOUND for a path that does not percent-decode, without echoing it', async () => {
    for (const url of ['/api/v1/trx/%E0%A4%A', '/api/v1/trx/%ZZ', '/api/admin/v1/providers/%C3%28']) {
      const res = await app.inject({ url, headers: url.includes('admin') ? adminHeaders : r.headers })
      expect(res.statusCode, url).toBe(404)
      expect(res.body).toBe('{"message":"NOT_FOUND"}')
    }
  })

  it('answers a path parameter over the router limit with 404 NOT_FOUND, not a 414 echoing the path', async () => {
    const long = 'x'.repeat(5_000)
    const res = await app.inject({ url: `/api/v1/trx/${long}`, headers: r.headers })
    expect(res.statusCode).toBe(404)
    expect(res.body).toBe('{"message":"NOT_FOUND"}')
    // Within the router limit but over the ref_id length: simply not found.
    const within = await app.inject({ url: `/api/v1/trx/${'y'.repeat(1_999)}`, headers: r.headers })
    expect([within.statusCode, within.json()]).toEqual([404, { message: 'TRX_NOT_FOUND' }])
  })

  it('answers 422 naming the path parameter, query field or body field that holds a NUL or an unpaired surrogate', async () => {
    const ref = await get(app, '/trx/%00', r)
    expect([ref.statusCode, ref.json().message, fieldsOf(ref)]).toEqual([422, 'VALIDATION_ERROR', ['ref']])
    const token = await app.inject({ method: 'DELETE', url: '/api/v1/item/lock/LCK-%00', headers: r.headers })
    expect([token.statusCode, fieldsOf(token)]).toEqual([422, ['lock_token']])
    const provider = await app.inject({
      method: 'PATCH',
      url: '/api/admin/v1/providers/a%00',
      headers: adminHeaders,
      payload: { active: false },
    })
    expect([provider.statusCode, fieldsOf(provider)]).toEqual([422, ['code']])
    const search = await get(app, '/item?search=a%00b', r)
    expect([search.statusCode, fieldsOf(search)]).toEqual([422, ['search']])
    const surrogate = await get(app, '/item?search=%ED%A0%80', r)
    expect(surrogate.statusCode).toBeLessThan(500)
    const body = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name":"a\\u0000b","email":"x@example.com"}',
    })
    expect([body.statusCode, fieldsOf(body)]).toEqual([422, ['name']])
    const lone = await buyRaw({ ref_id: 'half-\ud800', carts: [{ item_id: item.id, quantity: 1 }] })
    expect([lone.statusCode, fieldsOf(lone)]).toEqual([422, ['ref_id']])
    // A huge unknown key is named, not echoed whole.
    const key = 'k'.repeat(10_000)
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: `{"name":"n","${key}":"\\u0000"}`,
    })
    expect(unknown.statusCode).toBe(422)
    expect(unknown.body.length).toBeLessThan(300)
    expect(await orderCount()).toBe(1)
  })

  it('answers a request Node cannot parse (a bad method, header or Content-Length; huge headers) with BAD_REQUEST in the house shape', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as net.AddressInfo
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request))
        let answer = ''
        socket.on('data', (chunk) => (answer += chunk))
        socket.on('close', () => resolve(answer))
        socket.on('error', reject)
      })
    // Each answer carries a new X-Request-Id (the caller's cannot be trusted from a request that did not parse).
    const ids: (string | undefined)[] = []
    const requestId = (answer: string) => answer.split('\r\n\r\n')[0].match(/\r\nX-Request-Id: ([^\r]*)\r\n/i)?.[1]
    const unreadable = [
      ...['abc', '-1', '1, 2'].map(
        (length) =>
          `POST /api/v1/trx HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: mine-1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{}`,
      ),
      // An unknown method, a bare CR inside a header, and Content-Length beside Transfer-Encoding.
      'FOO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'GET /api/v1/balance HTTP/1.1\r\nHost: 127.0.0.1\r\nX-APIKEY: a\rb\r\n\r\n',
      'POST /api/v1/trx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    ]
    for (const request of unreadable) {
      const answer = await raw(request)
      expect(answer, request).toMatch(/^HTTP\/1\.1 400 /)
      const body = JSON.parse(answer.split('\r\n\r\n')[1])
      expect(body.message, request).toBe('BAD_REQUEST')
      expect(body.errors.request[0]).toMatch(/Content-Length or Transfer-Encoding/)
      ids.push(requestId(answer))
    }
    const huge = await raw(`GET /api/v1/balance HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`)
    expect(huge).toMatch(/^HTTP\/1\.1 413 /)
    expect(huge.split('\r\n\r\n')[1]).toBe('{"message":"PAYLOAD_TOO_LARGE"}')
    ids.push(requestId(huge))
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(new Set(ids).size).toBe(unreadable.length + 1)
    // The server still answers afterwards.
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/balance`, { headers: r.headers })
    expect(ok.status).toBe(200)
  })
})

describe('admin CLI flags', () => {
  const bodyOf = (argv: string[]) => {
    const { name, args, flags } = parseArgs(argv)
    return COMMANDS[name].body!(flags, args)
  }

  it('says "<flag>: not a number" instead of sending NaN as null', () => {
    expect(() => bodyOf(['balance:adjust', '1', '--amount', 'abc', '--reason', 'x'])).toThrow('--amount: not a number')
    expect(() => bodyOf(['balance:adjust', '1', '--amount', '--reason', 'x'])).toThrow('--amount: not a number')
    expect(() => bodyOf(['items:update', '1', '--price', '12abc'])).toThrow('--price: not a number')
    expect(() => bodyOf(['resellers:update', '1', '--max-active-locks', 'ten'])).toThrow('--max-active-locks: not a number')
    expect(() => bodyOf(['items:update', '1', '--active', 'yes'])).toThrow('--active: not true or false')
    expect(bodyOf(['balance:adjust', '1', '--amount', '-5000', '--reason', 'x'])).toEqual({ amount: -5000, reason: 'x' })
    expect(bodyOf(['resellers:update', '1', '--max-active-locks', 'default'])).toEqual({ max_active_locks: null })
    expect(bodyOf(['items:update', '1', '--active', 'false', '--stock', '7'])).toEqual({ active: false, stock: 7 })
  })

  it('exits 1 with the message and sends nothing', async () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const run = promisify(execFile)
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli/admin.ts', 'balance:adjust', '1', '--amount', 'abc', '--reason', 'x'],
      {
        cwd: root,
        env: { PATH: process.env.PATH, APP_KEY, ADMIN_TOKEN, DATA_DIR: 'memory', LOG_LEVEL: 'silent' },
      },
    ).catch((error: { code: number; stderr: string; stdout: string }) => error)
    expect(failed).toMatchObject({ code: 1, stdout: '' })
    expect((failed as { stderr: string }).stderr.trim()).toBe('admin: --amount: not a number')
  })
})
