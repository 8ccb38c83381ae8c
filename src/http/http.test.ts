import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, APP_KEY, createTestApp } from '../../test/app.js'
import { createReseller, get } from '../../test/factory.js'
import { loadConfig } from '../config.js'
import { createContext } from '../context.js'
import { openPostgres } from '../db/database.js'
import { buildApp } from './server.js'

// Every app is made at the top level: createTestApp's afterAll(close) is only registered there.
const { app } = await createTestApp()
const r = await createReseller(app, { balance: 1000 })
const broken = await createTestApp()
const brokenReseller = await createReseller(broken.app)
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` }

// An app on a PostgreSQL that refuses connections (port 1): every query fails with ECONNREFUSED.
const deadConfig = loadConfig({
  APP_ENV: 'test',
  DATA_DIR: 'memory',
  APP_KEY,
  ADMIN_TOKEN,
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'silent',
  WORKERS: 'false',
})
const deadDatabase = await openPostgres('postgres://postgres@127.0.0.1:1/none', 2)
const dead = await buildApp(createContext(deadConfig, deadDatabase))
afterAll(async () => {
  await dead.close()
  await deadDatabase.close()
})

describe('request bodies', () => {
  it('answers 400 INVALID_JSON for a body that does not parse', async () => {
    for (const payload of ['{"name":', '{name: "x"}', 'null,']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/v1/resellers',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode, payload).toBe(400)
      expect(res.json()).toEqual({ message: 'INVALID_JSON' })
    }
  })

  it('answers 422 VALIDATION_ERROR with errors keyed by dotted field path', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/items',
      headers: adminHeaders,
      payload: {
        name: 'N',
        price: 'abc',
        order_process: 'auto',
        provider_meta: { min_qty: 'x' },
        required_fields: [{ key: 'k', label: 'L' }],
      },
    })
    expect(res.statusCode).toBe(422)
    const body = res.json()
    expect(body.message).toBe('VALIDATION_ERROR')
    expect(Object.keys(body.errors).sort()).toEqual(['price', 'product_name', 'provider_meta.min_qty', 'required_fields.0.required'])
    expect(body.errors.product_name).toEqual(['is required'])
    expect(body.errors.price).toEqual(['must be an integer'])
    expect(body.errors['required_fields.0.required']).toEqual(['is required'])
    // Nothing half-made.
    expect((await app.inject({ url: '/api/admin/v1/items/1', headers: adminHeaders })).statusCode).toBe(404)
  })

  it('ignores unknown fields', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers',
      headers: adminHeaders,
      payload: { name: 'Extra', colour: 'blue' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).not.toHaveProperty('colour')
  })

  it('treats a JSON content type on a GET without a body as no body', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { ...r.headers, 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'OK', data: { balance: 1000 } })
    const rotate = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/resellers/${r.id}/api-keys`,
      headers: { ...adminHeaders, 'content-type': 'application/json' },
    })
    expect(rotate.statusCode).toBe(200)
    r.headers['x-apikey'] = rotate.json().data.api_key
  })

  it('answers 413 PAYLOAD_TOO_LARGE above 64 KiB and accepts just under it', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Big', pad: 'x'.repeat(64 * 1024) }),
    })
    expect(big.statusCode).toBe(413)
    expect(big.json()).toEqual({ message: 'PAYLOAD_TOO_LARGE' })
    const fits = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/resellers',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Fits', pad: 'x'.repeat(60 * 1024) }),
    })
    expect(fits.statusCode).toBe(200)
  })
})

describe('routes and failures', () => {
  it('answers an unknown route with 404 {message: NOT_FOUND}, under any prefix', async () => {
    for (const [method, url] of [
      ['GET', '/nope'],
      ['POST', '/api/v1/nope'],
      ['DELETE', '/api/admin/v1/nope'],
    ] as const) {
      const res = await app.inject({ method, url, headers: r.headers })
      expect(res.statusCode, url).toBe(404)
      expect(res.json()).toEqual({ message: 'NOT_FOUND' })
    }
  })

  it('answers a known path with another method 405 METHOD_NOT_ALLOWED, with Allow naming the methods it takes', async () => {
    for (const [method, url, allow] of [
      ['PATCH', '/api/v1/balance', 'GET, POST'],
      ['DELETE', '/api/v1/trx/INV1', 'GET'],
      ['PUT', '/api/v1/item/lock?x=1', 'GET, POST'],
      ['DELETE', '/api/admin/v1/resellers', 'GET, POST'],
    ] as const) {
      const res = await app.inject({ method, url, headers: r.headers })
      expect(res.statusCode, url).toBe(405)
      expect(res.headers.allow, url).toBe(allow)
      expect(res.json()).toEqual({ message: 'METHOD_NOT_ALLOWED', errors: { method: [`must be one of: ${allow}`] } })
    }
  })

  it('says to send JSON when a body comes form-encoded', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/trx',
      headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'ref_id=a',
    })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toEqual({
      message: 'UNSUPPORTED_MEDIA_TYPE',
      errors: { 'Content-Type': ['send the body as JSON with Content-Type: application/json'] },
    })
  })

  it('answers 500 INTERNAL_ERROR without internals when the database handle is gone', async () => {
    // Destroying the query builder fails every query with an error that is no connection problem.
    await broken.ctx.db.destroy()
    for (const [url, headers] of [
      ['/api/v1/balance', brokenReseller.headers],
      ['/api/admin/v1/resellers', adminHeaders],
    ] as const) {
      const res = await broken.app.inject({ url, headers })
      expect(res.statusCode).toBe(500)
      expect(res.body).toBe('{"message":"INTERNAL_ERROR"}')
    }
    expect((await broken.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'database unreachable' })
  })

  it('answers 503 SERVICE_UNAVAILABLE when the database cannot be reached', async () => {
    for (const [url, headers] of [
      ['/api/v1/balance', r.headers],
      ['/api/admin/v1/resellers', adminHeaders],
    ] as const) {
      const res = await dead.inject({ url, headers })
      expect(res.statusCode).toBe(503)
      expect(res.body).toBe('{"message":"SERVICE_UNAVAILABLE"}')
    }
    const ready = await dead.inject({ url: '/readyz' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toEqual({ status: 'database unreachable' })
    expect((await dead.inject({ url: '/healthz' })).statusCode).toBe(200)
  })
})

describe('operations endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await app.inject({ url: '/healthz' })
    expect([health.statusCode, health.json()]).toEqual([200, { status: 'ok' }])
    const ready = await app.inject({ url: '/readyz' })
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }])
  })

  it('counts requests by route and status in /metrics', async () => {
    await get(app, '/balance', r)
    await app.inject({ url: '/api/v1/balance', headers: { 'x-apikey': 'rk_wrong' } })
    const res = await app.inject({ url: '/metrics', headers: adminHeaders })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/balance",status="200"\} [1-9]\d*$/m)
    expect(res.body).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/balance",status="401"\} [1-9]\d*$/m)
    expect(res.body).toContain('http_request_duration_seconds_bucket')
  })

  it('publishes an OpenAPI 3.1 document with every route and its declared responses', async () => {
    const res = await app.inject({ url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-APIKEY' },
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'ADMIN_TOKEN (acts as an owner), or a person’s own `op_…` token (acts as them, with their role)',
      },
    })
    const expected: [string, string, string[]][] = [
      ['get', '/api/v1/balance', ['200', '401', '403', '429']],
      ['get', '/api/v1/balance/mutations', ['200', '401', '422']],
      ['get', '/api/v1/item', ['200', '401', '422']],
      ['get', '/api/v1/item/{id}', ['200', '401', '404']],
      ['post', '/api/admin/v1/resellers', ['200', '401', '422']],
      ['patch', '/api/admin/v1/resellers/{id}', ['200', '401', '404', '422']],
      ['post', '/api/admin/v1/resellers/{id}/api-keys', ['200', '401', '404']],
      ['post', '/api/admin/v1/resellers/{id}/balance', ['200', '400', '401', '404', '422']],
      ['post', '/api/admin/v1/items', ['200', '401', '422']],
      ['patch', '/api/admin/v1/items/{id}', ['200', '401', '404', '422']],
      ['post', '/api/admin/v1/items/{id}/licenses', ['200', '401', '404', '422']],
      ['post', '/api/admin/v1/providers', ['200', '401', '409', '422']],
      ['get', '/api/admin/v1/providers', ['200', '401']],
      ['patch', '/api/admin/v1/providers/{code}', ['200', '401', '404', '422']],
    ]
    for (const [method, path, statuses] of expected) {
      const operation = doc.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses))
      expect(operation.responses['200'].content['application/json'].schema).toBeDefined()
      expect(operation.security).toEqual([path.startsWith('/api/admin/') ? { adminToken: [] } : { apiKey: [] }])
    }
    // Operations endpoints are not part of the API contract.
    // A service's push to us (Moota's, docs/design.md §7b) is documented at the path that service is given.
    expect(
      Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/') && !p.startsWith('/api/admin/v1/') && !p.startsWith('/api/hooks/')),
    ).toEqual([])
  })

  it('serves the docs UI at /api/docs', async () => {
    let res = await app.inject({ url: '/api/docs' })
    if (res.statusCode === 302) res = await app.inject({ url: res.headers.location as string })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('swagger')
  })
})
