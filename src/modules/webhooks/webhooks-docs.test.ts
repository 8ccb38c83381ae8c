import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createReseller, get, type Reseller } from '../../../test/factory.js'
import { startReceiver } from '../../../test/receiver.js'
import { NODE, PYTHON } from './verification-code.js'

const { app } = await createTestApp()

const put = (r: Reseller, payload: object) => app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload })
const post = (r: Reseller, url: string) => app.inject({ method: 'POST', url: `/api/v1${url}`, headers: r.headers })
const newSecret = async (r: Reseller) => (await post(r, '/webhook/secret')).json().data.webhook_secret as string

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'])
    return true
  } catch {
    return false
  }
})()

describe('verification code handed out by the docs', async () => {
  const receiver = await startReceiver()
  const r = await createReseller(app)
  const secret = await newSecret(r)
  await put(r, { callback_url: receiver.url })
  await post(r, '/webhook/test')
  const [{ body, headers }] = receiver.received
  const tampered = body.replace('"amount":0', '"amount":1')

  it('Node: both checks accept a real callback and refuse a changed body or another secret', () => {
    const module = { exports: {} as Record<string, (...args: unknown[]) => boolean> }
    new Function('module', 'require', NODE)(module, createRequire(import.meta.url))
    const { verifyXSignature, verifyStandardWebhook } = module.exports
    expect(verifyXSignature(body, headers, secret)).toBe(true)
    expect(verifyStandardWebhook(body, headers, secret)).toBe(true)
    expect(verifyStandardWebhook(tampered, headers, secret)).toBe(false)
    expect(verifyXSignature(body, headers, `${secret}x`)).toBe(false)
    expect(verifyStandardWebhook(body, headers, `whsec_${crypto.randomBytes(32).toString('base64')}`)).toBe(false)
  })

  it.skipIf(!hasPython)('Python: the same', () => {
    const harness = `${PYTHON}
import os, sys
raw = sys.stdin.buffer.read()
headers = json.loads(os.environ["HEADERS"])
secret = os.environ["SECRET"]
print(verify_x_signature(raw, headers, secret), verify_standard_webhook(raw, headers, secret))`
    const verify = (input: string, key = secret) =>
      execFileSync('python3', ['-c', harness], { input, env: { HEADERS: JSON.stringify(headers), SECRET: key }, encoding: 'utf8' }).trim()
    expect(verify(body)).toBe('True True')
    expect(verify(tampered)).toBe('True False')
    expect(verify(body, `whsec_${crypto.randomBytes(32).toString('base64')}`)).toBe('False False')
  })
})

describe('GET /v1/webhook/docs', () => {
  it('describes events, headers, both signatures with code, and the retry schedule', async () => {
    const r = await createReseller(app)
    const res = await get(app, '/webhook/docs', r)
    expect(res.statusCode).toBe(200)
    const docs = res.json().data
    expect(docs.events.map((e: { event: string }) => e.event)).toEqual([
      'order.paid',
      'order.completed',
      'order.canceled',
      'order.item.sent',
      'complaint.updated',
      'webhook.test',
    ])
    expect(docs.headers.map((h: { name: string }) => h.name)).toEqual([
      'Content-Type',
      'User-Agent',
      'X-Event',
      'X-Timestamp',
      'X-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ])
    expect(Object.keys(docs.signatures.verification_code).sort()).toEqual(['node', 'php', 'python'])
    expect(docs.retries.schedule.map((s: { delay_seconds: number }) => s.delay_seconds)).toEqual([
      0, 1, 2, 4, 8, 60, 300, 1800, 7200, 21600,
    ])
    expect(docs.retries.timeout_ms).toBe(10_000)
    expect(docs.body.examples['order.completed'].data.items[0].licenses[0]).toHaveProperty('product_license')
    // The public docs' payload fields, and order.paid as of its event.
    expect(docs.headers.find((h: { name: string }) => h.name === 'User-Agent').value).toBe('ResellerOrderingService-Webhooks/1.0')
    expect(docs.body.examples['order.paid'].data.status).toBe('paid')
    expect(docs.body.examples['order.completed'].data.items[1]).toMatchObject({
      product_id: expect.any(Number),
      status: 'completed',
      h2h_results: {
        sn: expect.any(String),
        dispatch_status: 'completed',
        dispatch_message: expect.any(String),
        ref_id: expect.any(String),
      },
    })
    expect(docs.body.examples['order.completed'].data.items[0].order_item_id).toEqual(expect.any(String))
    expect(docs.body.examples['complaint.updated'].data).toMatchObject({ order_item_id: expect.any(String), status: 'answered' })
    expect(docs.signatures.x_signature.S).toContain('"complaint" for complaint.updated')
    expect(docs.body.examples['order.item.sent'].data).toMatchObject({
      transaction_status: 'paid',
      item: { order_item_id: expect.any(String), status: 'sent', sent_at: expect.any(String) },
    })
  })
})

describe('routes named to resellers', () => {
  // Each `METHOD /path` a sentence names, with `{param}` filled in: a route of this API, not the not-found answer.
  const named = (text: string) =>
    [...text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[^\s"',;)]*[^\s"',;).])/g)].map((m) => [m[1], m[2]] as const)
  const assertRoutes = async (r: Reseller, routes: (readonly [string, string])[]) => {
    for (const [method, path] of routes) {
      expect(path, `${method} ${path}`).toMatch(/^\/api\/v1\//)
      const res = await app.inject({ method: method as 'GET', url: path.replace(/\{[^}]+\}/g, '1'), headers: r.headers })
      expect(res.json().message, `${method} ${path}`).not.toBe('NOT_FOUND')
    }
  }

  it('GET /v1/webhook/docs names them as resellers call them (/api/v1/…)', async () => {
    const r = await createReseller(app)
    const routes = named(JSON.stringify((await get(app, '/webhook/docs', r)).json().data))
    expect(routes.length).toBeGreaterThanOrEqual(6)
    await assertRoutes(r, routes)
  })

  it('so do the errors that tell a reseller what to call first', async () => {
    const r = await createReseller(app)
    const noUrl = (await post(r, '/webhook/test')).json().errors.callback_url[0]
    const enableFirst = (await put(r, { callback_url: 'https://shop.example/h', webhook_enabled: true })).json().errors.webhook_enabled[0]
    await put(r, { callback_url: 'https://shop.example/h' })
    const noSecret = (await post(r, '/webhook/test')).json().errors.webhook_secret[0]
    const sentences: string[] = [noUrl, enableFirst, noSecret]
    const routes = sentences.flatMap(named)
    expect(routes).toHaveLength(3)
    await assertRoutes(r, routes)
  })
})
