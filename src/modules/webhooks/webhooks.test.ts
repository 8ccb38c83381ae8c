import crypto from 'node:crypto'
import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createReseller, get, type Reseller } from '../../../test/factory.js'
import { assertDeliveryTotals } from '../../../test/invariants.js'
import { startReceiver } from '../../../test/receiver.js'
import { COMMANDS } from '../../cli/commands.js'

const { app, ctx } = await createTestApp()

const put = (r: Reseller, payload: object) => app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload })
const post = (r: Reseller, url: string) => app.inject({ method: 'POST', url: `/api/v1${url}`, headers: r.headers })
const newSecret = async (r: Reseller) => (await post(r, '/webhook/secret')).json().data.webhook_secret as string

describe('webhook settings', () => {
  it('starts empty, takes a URL and a secret, and never shows the secret again', async () => {
    const r = await createReseller(app)
    expect((await get(app, '/webhook', r)).json()).toEqual({
      message: 'OK',
      data: { callback_url: null, webhook_enabled: false, has_secret: false, secret_created_at: null },
    })

    const generated = await post(r, '/webhook/secret')
    expect(generated.statusCode).toBe(200)
    const body = generated.json()
    expect(body).toEqual({
      status: true,
      message: expect.any(String),
      data: { webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) },
    })
    expect(Buffer.from(body.data.webhook_secret.slice(6), 'base64')).toHaveLength(32)

    const set = await put(r, { callback_url: 'https://shop.example/hooks/reseller', webhook_enabled: true })
    expect(set.statusCode).toBe(200)
    expect(set.json().data).toMatchObject({ callback_url: 'https://shop.example/hooks/reseller', webhook_enabled: true, has_secret: true })
    const read = (await get(app, '/webhook', r)).json().data
    expect(new Date(read.secret_created_at).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(JSON.stringify(read)).not.toContain('whsec_')

    // either field alone
    expect((await put(r, { webhook_enabled: false })).json().data).toMatchObject({
      callback_url: 'https://shop.example/hooks/reseller',
      webhook_enabled: false,
    })
    expect((await put(r, { callback_url: 'https://other.example/h' })).json().data).toMatchObject({
      callback_url: 'https://other.example/h',
      webhook_enabled: false,
    })
    // a new secret replaces the old one
    expect(await newSecret(r)).not.toBe(body.data.webhook_secret)
  })

  it('enabling needs a URL and a secret; clearing the URL of an enabled webhook is refused', async () => {
    const r = await createReseller(app)
    const noUrl = await put(r, { webhook_enabled: true })
    expect(noUrl.statusCode).toBe(422)
    expect(noUrl.json()).toEqual({ message: 'VALIDATION_ERROR', errors: { webhook_enabled: [expect.stringContaining('callback_url')] } })
    const noSecret = await put(r, { callback_url: 'https://shop.example/h', webhook_enabled: true })
    expect(noSecret.statusCode).toBe(422)
    expect(noSecret.json().errors.webhook_enabled[0]).toContain('secret')
    expect((await get(app, '/webhook', r)).json().data.callback_url).toBeNull()

    await newSecret(r)
    expect((await put(r, { callback_url: 'https://shop.example/h', webhook_enabled: true })).statusCode).toBe(200)
    for (const cleared of [null, '']) {
      const res = await put(r, { callback_url: cleared })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors).toHaveProperty('callback_url')
    }
    expect((await put(r, { callback_url: null, webhook_enabled: false })).json().data).toMatchObject({
      callback_url: null,
      webhook_enabled: false,
    })
  })

  it('URL rule outside production: https anywhere, http only for localhost and loopback', async () => {
    const r = await createReseller(app)
    for (const ok of [
      'https://shop.example/h',
      'http://localhost:3000/h',
      'http://127.0.0.1:9/h',
      'http://[::1]:8080/h',
      'http://api.localhost/h',
    ]) {
      expect((await put(r, { callback_url: ok })).statusCode, ok).toBe(200)
    }
    for (const bad of [
      'http://shop.example/h',
      'http://10.0.0.1/h',
      'ftp://shop.example/h',
      'not a url',
      '/relative',
      'https://user:pw@shop.example/h',
    ]) {
      const res = await put(r, { callback_url: bad })
      expect(res.statusCode, bad).toBe(422)
      expect(res.json()).toMatchObject({ message: 'VALIDATION_ERROR', errors: { callback_url: [expect.any(String)] } })
    }
  })

  it('validates the body: no field, wrong types, too long', async () => {
    const r = await createReseller(app)
    expect((await put(r, {})).statusCode).toBe(422)
    const typed = await put(r, { webhook_enabled: 'maybe', callback_url: { href: 'https://shop.example/' } })
    expect(typed.statusCode).toBe(422)
    expect(Object.keys(typed.json().errors).sort()).toEqual(['callback_url', 'webhook_enabled'])
    const long = await put(r, { callback_url: `https://shop.example/${'a'.repeat(2100)}` })
    expect(long.statusCode).toBe(422)
  })

  it('needs an API key', async () => {
    for (const [method, url] of [
      ['GET', '/webhook'],
      ['PUT', '/webhook'],
      ['POST', '/webhook/secret'],
      ['POST', '/webhook/test'],
      ['GET', '/webhook/docs'],
      ['GET', '/webhook/deliveries'],
      ['POST', '/webhook/deliveries/1/retry'],
    ] as const) {
      const res = await app.inject({ method, url: `/api/v1${url}` })
      expect(res.statusCode, url).toBe(401)
      expect(res.json().message).toBe('INVALID_API_KEY')
    }
  })
})

describe('POST /v1/webhook/test', () => {
  it('sends webhook.test now, signed both ways over the exact bytes, and answers the outcome', async () => {
    const receiver = await startReceiver()
    const r = await createReseller(app)
    const secret = await newSecret(r)
    await put(r, { callback_url: receiver.url })
    const res = await post(r, '/webhook/test')
    expect(res.statusCode).toBe(200)
    const outcome = res.json().data
    expect(outcome).toMatchObject({
      delivered: true,
      status_code: 200,
      error: null,
      webhook_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    })
    expect(outcome.duration_ms).toBeGreaterThanOrEqual(0)

    expect(receiver.received).toHaveLength(1)
    const [call] = receiver.received
    const { headers, json } = call
    expect(json).toMatchObject({
      event: 'webhook.test',
      data: { status: 'test', event_id: outcome.webhook_id, items: [], h2h_results: [], smm_results: [] },
    })
    expect(json.data.ref_id).toMatch(/^TEST-\d+$/)
    expect(json.data.invoice).toMatch(/^TEST-[0-9A-F]+$/)
    expect(headers['content-type']).toBe('application/json')
    expect(headers['user-agent']).toMatch(/Webhooks/)
    expect(headers['x-event']).toBe(json.event)
    expect(new Date(headers['x-timestamp'] as string).toISOString()).toBe(headers['x-timestamp'])
    expect(headers['webhook-id']).toBe(outcome.webhook_id)
    expect(headers['x-signature']).toBe(
      crypto.createHash('sha256').update(`${json.data.ref_id}:${json.data.invoice}:test:${secret}`).digest('hex'),
    )

    // The reference implementation of Standard Webhooks accepts it; a changed byte or another secret does not.
    expect(new Webhook(secret).verify(call.body, headers as Record<string, string>)).toEqual(json)
    expect(() => new Webhook(secret).verify(call.body.replace('"test"', '"tset"'), headers as Record<string, string>)).toThrow()
    expect(() =>
      new Webhook(`whsec_${crypto.randomBytes(32).toString('base64')}`).verify(call.body, headers as Record<string, string>),
    ).toThrow()

    const listed = (await get(app, '/webhook/deliveries', r)).json()
    expect(listed.data).toHaveLength(1)
    expect(listed.data[0]).toMatchObject({
      event: 'webhook.test',
      status: 'delivered',
      webhook_id: outcome.webhook_id,
      attempt_count: 1,
      next_attempt_at: null,
      attempts: [{ status_code: 200, error: null }],
    })
  })

  it('answers a failure as an outcome (not an error) and records it', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }))
    const r = await createReseller(app)
    await newSecret(r)
    await put(r, { callback_url: receiver.url })
    const outcome = (await post(r, '/webhook/test')).json().data
    expect(outcome).toMatchObject({ delivered: false, status_code: 503, error: 'HTTP 503' })
    receiver.answerWith(() => ({ status: 302, headers: { location: 'https://elsewhere.example/' } }))
    expect((await post(r, '/webhook/test')).json().data).toMatchObject({
      delivered: false,
      status_code: 302,
      error: expect.stringContaining('redirect'),
    })
    const listed = (await get(app, '/webhook/deliveries?status=failed', r)).json()
    expect(listed.meta.total).toBe(2)
    await assertDeliveryTotals(ctx.db)
  })

  it('needs a URL and a secret first', async () => {
    const r = await createReseller(app)
    expect((await post(r, '/webhook/test')).json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { callback_url: [expect.any(String)] },
    })
    await put(r, { callback_url: 'https://shop.example/h' })
    expect((await post(r, '/webhook/test')).json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { webhook_secret: [expect.any(String)] },
    })
  })
})

describe('operator side', () => {
  it("shows an account's settings and deliveries; unknown accounts are 404", async () => {
    const receiver = await startReceiver()
    const r = await createReseller(app)
    await newSecret(r)
    await put(r, { callback_url: receiver.url })
    await post(r, '/webhook/test')
    expect(await admin(app, 'GET', `/resellers/${r.id}/webhook`)).toMatchObject({ callback_url: receiver.url, has_secret: true })
    const deliveries = await admin(app, 'GET', `/resellers/${r.id}/webhook-deliveries`)
    expect(deliveries).toHaveLength(1)
    const missing = await app.inject({
      method: 'GET',
      url: '/api/admin/v1/resellers/999999/webhook-deliveries',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: 'ACCOUNT_NOT_FOUND' })

    // The CLI's commands name these routes.
    const [delivery] = deliveries
    for (const [name, args] of [
      ['webhooks:show', [r.id]],
      ['webhooks:deliveries', [r.id]],
      ['webhooks:retry', [r.id, delivery.id]],
    ] as const) {
      const command = COMMANDS[name]
      const res = await app.inject({
        method: command.method,
        url: `/api/admin/v1${command.path(args.map(String))}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect(res.statusCode, name).toBe(200)
    }
  })
})

describe('GET /v1/webhook/deliveries, paged as the orders and the ledger are', () => {
  it('counts up to the cap and hands out a cursor that reads on where the page ended', async () => {
    const r = await createReseller(app)
    const rows = Array.from({ length: 25 }, (_, i) => ({
      account_id: r.id,
      event: 'order.completed',
      webhook_id: `evt_paging_${r.id}_${i}`,
      status: 'delivered' as const,
    }))
    const ids = (await ctx.db.insertInto('webhook_deliveries').values(rows).returning('id').execute()).map((d) => Number(d.id)).reverse()
    const first = (await get(app, '/webhook/deliveries', r)).json()
    expect(first.data.map((d: { id: number }) => d.id)).toEqual(ids.slice(0, 20))
    expect(first.meta).toEqual({ page: 1, per_page: 20, total: 25, last_page: 2, total_capped: false, next_cursor: expect.any(String) })
    const byCursor = (await get(app, `/webhook/deliveries?cursor=${first.meta.next_cursor}`, r)).json()
    const byNumber = (await get(app, '/webhook/deliveries?page=2', r)).json()
    expect(byCursor.data.map((d: { id: number }) => d.id)).toEqual(ids.slice(20))
    expect(byCursor.data).toEqual(byNumber.data)
    expect(byCursor.meta).toMatchObject({ page: 2, next_cursor: null })
  })
})

describe('the total of GET /v1/webhook/deliveries', () => {
  it('is the kept one unfiltered, and counted up to the cap by status', async () => {
    const r = await createReseller(app)
    const delivery = (i: number, status: 'delivered' | 'failed') => ({
      account_id: r.id,
      event: 'order.completed',
      webhook_id: `evt_total_${r.id}_${i}`,
      status,
    })
    await ctx.db
      .insertInto('webhook_deliveries')
      .values(Array.from({ length: 7 }, (_, i) => delivery(i, i < 2 ? 'failed' : 'delivered')))
      .execute()
    await ctx.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', `evt_total_${r.id}_6`).execute()
    await assertDeliveryTotals(ctx.db)
    const total = async (query: string) => (await get(app, `/webhook/deliveries${query}`, r)).json().meta
    const operators = async (query: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/admin/v1/resellers/${r.id}/webhook-deliveries${query}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).json().meta
    expect(await total('')).toMatchObject({ total: 6, total_capped: false })

    // Read from the kept row, not counted: a row that said more would show, past the cap as the orders' does.
    await sql`UPDATE webhook_delivery_totals SET deliveries = 10001 WHERE account_id = ${r.id}`.execute(ctx.db)
    for (const list of [total, operators]) {
      expect(await list('')).toMatchObject({ total: 10_000, last_page: 500, total_capped: true })
      expect(await list('?status=failed')).toMatchObject({ total: 2, total_capped: false })
      expect(await list('?status=delivered')).toMatchObject({ total: 4, total_capped: false })
    }
    await sql`UPDATE webhook_delivery_totals SET deliveries = 6 WHERE account_id = ${r.id}`.execute(ctx.db)
  })

  it('is 0 for an account that never had a delivery', async () => {
    const r = await createReseller(app)
    expect((await get(app, '/webhook/deliveries', r)).json().meta).toMatchObject({ total: 0, last_page: 1, next_cursor: null })
  })
})
