import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../test/app.js'
import { signedIn, visitor } from '../../test/console.js'

// At the top: createTestApp closes the app (and drops its database) in an afterAll only a file's top level registers.
const t = await createTestApp()
const doc: any = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
const production = await createTestApp({}, { appEnv: 'production' })

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
  )

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId, a summary and a description, and every response a description', () => {
    const ids = new Set<string>()
    for (const { id, op } of operations()) {
      expect(op.operationId, id).toMatch(/^[a-z][A-Za-z]+$/)
      expect(ids.has(op.operationId), `${id}: ${op.operationId} twice`).toBe(false)
      ids.add(op.operationId)
      expect(op.summary, id).toBeTruthy()
      expect(op.description?.length, id).toBeGreaterThan(20)
      for (const [status, response] of Object.entries<any>(op.responses))
        expect(response.description, `${id} ${status}`).not.toBe('Default Response')
    }
    expect(ids.size).toBeGreaterThan(40)
  })

  it('lists the codes of every error status in its description, each with an example body', () => {
    for (const { id, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue
        const examples = response.content['application/json'].examples
        const codes = Object.keys(examples)
        expect(codes.length, `${id} ${status}`).toBeGreaterThan(0)
        for (const code of codes) {
          expect(response.description, `${id} ${status}`).toContain(`\`${code}\``)
          expect(examples[code].value.message).toBe(code)
        }
      }
    }
    const purchase = doc.paths['/api/v1/trx'].post.responses
    expect(Object.keys(purchase['422'].content['application/json'].examples)).toEqual(
      expect.arrayContaining(['REF_ID_ALREADY_EXIST', 'MINIMUM_ORDER_NOT_MET', 'REQUIRED_FIELD_MISSING', 'VALIDATION_ERROR']),
    )
    expect(Object.keys(purchase['400'].content['application/json'].examples)).toContain('BALANCE_IS_INSUFFICIENT')
    expect(doc.components.schemas.ErrorBody.examples).toContainEqual({ message: 'TRX_NOT_FOUND' })
  })

  it('shows a request and a response example on every operation, reseller and operator alike', () => {
    for (const { id, op } of operations()) {
      const body = op.requestBody?.content?.['application/json']
      if (body) expect(body.example, id).toBeDefined()
      const ok = op.responses['200'] ?? op.responses['201']
      expect(ok?.content?.['application/json']?.example, id).toBeDefined()
    }
  })

  it('answers the base URL, /api and /api/v1 with links to the docs', async () => {
    for (const url of ['/', '/api', '/api/v1']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.json().data.docs).toMatch(/\/api\/docs$/)
      expect(res.json().data.openapi).toMatch(/\/api\/openapi\.json$/)
    }
  })

  it('in production shows the reseller API to anyone and the operator API only with the admin token', async () => {
    const adminPaths = (d: any) => Object.keys(d.paths).filter((p) => p.startsWith('/api/admin/'))
    const shown: any = (await production.app.inject({ url: '/api/openapi.json' })).json()
    const ui: any = (await production.app.inject({ url: '/api/docs/json' })).json()
    for (const d of [shown, ui]) {
      expect(adminPaths(d)).toEqual([])
      expect(d.paths['/api/v1/trx'].post).toBeDefined()
      expect(Object.keys(d.components.securitySchemes)).toEqual(['apiKey'])
      expect(d.tags.map((tag: any) => tag.name)).not.toContain('operator')
      expect(JSON.stringify(d)).not.toContain('ADMIN_TOKEN')
    }
    expect((await production.app.inject({ url: '/api/admin/openapi.json' })).statusCode).toBe(401)
    const wrong = await production.app.inject({ url: '/api/admin/openapi.json', headers: { authorization: 'Bearer nope' } })
    expect(wrong.statusCode).toBe(401)
    const full = await production.app.inject({ url: '/api/admin/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(full.statusCode).toBe(200)
    expect(adminPaths(full.json()).length).toBeGreaterThan(20)
    // The console links it for a signed-in operator.
    const operator = await signedIn(production.app)
    const linked = await operator.get('/console/openapi.json')
    expect(linked.status).toBe(200)
    expect(adminPaths(JSON.parse(linked.body)).length).toBe(adminPaths(full.json()).length)
    expect((await visitor(production.app).get('/console/openapi.json')).status).toBe(303)
    // Outside production the one document keeps both, for the generated client and local work.
    expect(adminPaths(doc).length).toBe(adminPaths(full.json()).length)
  })
})
