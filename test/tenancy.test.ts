import crypto from 'node:crypto'
import fc from 'fast-check'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ErrorCode } from '../src/errors.js'
import { createTestApp } from './app.js'
import { createAutoItem, createItem, createReseller, get, type Reseller } from './factory.js'
import { balanceOf, buy } from './factory-orders.js'
import { validValue } from './fuzz-values.js'
import { loadOperations, type Operation } from './openapi.js'

// docs/design.md §3 rule: another account's resource is a 404, never its data. Swept over every reseller route
// of the OpenAPI document, so a route added later must say here how its path parameters are owned.

const { app, ctx } = await createTestApp()
const operations = (await loadOperations(app)).filter((o) => o.audience === 'reseller')
const tag = crypto.randomBytes(4).toString('hex')

const owner = await createReseller(app, { name: 'Owner', balance: 10_000_000 })
const intruder = await createReseller(app, { name: 'Intruder', balance: 10_000_000 })
const auto = await createAutoItem(app, 6, { price: 1_000 })
const limited = await createItem(app, { order_process: 'manual', price: 500, stock: 100 })

async function ok<T = any>(res: { statusCode: number; body: string }, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status)
  return JSON.parse(res.body).data as T
}
const lockFor = (r: Reseller, quantity = 1) =>
  app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: r.headers, payload: { item_id: limited.id, quantity } })

// The owner's resources, in every state a reseller can reach.
const completed = await ok(await buy(app, owner, `owner-auto-${tag}`, [{ item_id: auto.id, quantity: 2 }]))
const paid = await ok(await buy(app, owner, `owner-manual-${tag}`, [{ item_id: limited.id, quantity: 1 }]))
const sandbox = await ok(
  await app.inject({
    method: 'POST',
    url: '/api/v1/order/sandbox',
    headers: owner.headers,
    payload: { ref_id: `owner-sbx-${tag}`, item_id: auto.id, quantity: 1 },
  }),
)
const active = await ok(await lockFor(owner, 2), 201)
const released = await ok(await lockFor(owner), 201)
await ok(await app.inject({ method: 'DELETE', url: `/api/v1/item/lock/${released.lock_token}`, headers: owner.headers }))
const used = await ok(await lockFor(owner, 3), 201)
await ok(await buy(app, owner, `owner-locked-${tag}`, [{ item_id: limited.id, quantity: 3 }], { lock_token: used.lock_token }))
const expired = await ok(await lockFor(owner), 201)
await sql`UPDATE stock_locks SET expires_at = clock_timestamp() - interval '1 second' WHERE token = ${expired.lock_token}`.execute(ctx.db)
await ctx.db.insertInto('payment_channels').values({ code: 'QRIS', name: 'QRIS', type: 'qris' }).execute()
const topup = await ok(
  await app.inject({
    method: 'POST',
    url: '/api/v1/balance',
    headers: owner.headers,
    payload: { amount: 10_000, channel: 'QRIS', ref_id: `owner-topup-${tag}` },
  }),
)
// A webhook delivery of the owner's: the test callback is logged like any other (port 9 refuses at once).
await ok(await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: owner.headers }))
await ok(
  await app.inject({
    method: 'PUT',
    url: '/api/v1/webhook',
    headers: owner.headers,
    payload: { callback_url: 'http://127.0.0.1:9/hook', webhook_enabled: true },
  }),
)
await ok(await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: owner.headers }))
const [delivery] = await ok<{ id: number }[]>(await get(app, '/webhook/deliveries', owner))
// A complaint of the owner's on the manual line (docs/design.md §14).
const paidLine: string = (await ok(await get(app, `/trx/${paid.ref_id}`, owner))).items[0].order_item_id
const complaint = await ok(
  await app.inject({
    method: 'POST',
    url: `/api/v1/trx/${paid.ref_id}/complaints`,
    headers: owner.headers,
    payload: { order_item_id: paidLine, reason: 'not_received', message: 'owner' },
  }),
  201,
)
const licenses: string[] = (await ok(await get(app, `/trx/${completed.ref_id}`, owner))).items[0].licenses.map(
  (l: { product_license: string }) => l.product_license,
)

/** How each path parameter of a reseller route is owned: the owner's values to try and the 404 that must answer them. */
const OWNED: Record<string, { code: ErrorCode; values: string[] }> = {
  ref: {
    code: 'TRX_NOT_FOUND',
    values: [
      completed.ref_id,
      completed.invoice,
      paid.ref_id,
      paid.invoice,
      sandbox.ref_id,
      sandbox.invoice,
      String(completed.id),
      `owner-locked-${tag}`,
      completed.invoice.toLowerCase(),
      topup.ref_id,
      topup.invoice,
    ],
  },
  lock_token: { code: 'LOCK_NOT_FOUND', values: [active.lock_token, released.lock_token, used.lock_token, expired.lock_token] },
  // A reseller `{id}` outside the shared catalog: a webhook delivery, or under /complaints a complaint (OWNED_UNDER).
  id: { code: 'DELIVERY_NOT_FOUND', values: [String(delivery.id)] },
}
/** A parameter whose owner depends on the path it is in: `{id}` under /complaints is a complaint. */
const OWNED_UNDER: Record<string, typeof OWNED> = {
  '/api/v1/complaints/': { id: { code: 'COMPLAINT_NOT_FOUND', values: [String(complaint.id)] } },
}
const ownedIn = (op: Operation) =>
  Object.entries(OWNED_UNDER).reduce((owned, [prefix, over]) => (op.path.startsWith(prefix) ? { ...owned, ...over } : owned), OWNED)
/** Routes whose parameters name something every account shares (the catalog). */
const SHARED = new Set(['GET /api/v1/item/{id}'])

const ownerSecrets = [...OWNED.ref.values.filter((v) => v.length > 12), ...OWNED.lock_token.values, ...licenses]
const paramsOf = (op: Operation) => op.params.filter((p) => p.in === 'path')
const fill = (op: Operation, value: (name: string) => string) =>
  op.path.replace(/\{(\w+)\}/g, (_m, name) => encodeURIComponent(value(name)))

/** A valid body for a route that takes one, so validation never answers before ownership does. */
function bodyFor(op: Operation): string | undefined {
  if (!op.body) return undefined
  const [g] = fc.sample(fc.gen(), { seed: 7, numRuns: 1 })
  return JSON.stringify(validValue(g, op.body, () => undefined))
}
function call(op: Operation, r: Reseller, url: string) {
  const payload = bodyFor(op)
  return app.inject({ method: op.method, url, headers: { ...r.headers, ...(payload && { 'content-type': 'application/json' }) }, payload })
}

describe('tenancy: another account’s ids, refs, invoices and lock tokens', () => {
  it('covers every reseller route with a path parameter (a new one must be added to OWNED or SHARED)', () => {
    expect(operations.length).toBeGreaterThan(5)
    const uncovered = operations
      .filter((op) => paramsOf(op).length && !SHARED.has(op.id) && paramsOf(op).some((p) => !ownedIn(op)[p.name]))
      .map((op) => op.id)
    expect(uncovered).toEqual([])
    expect(operations.filter((op) => paramsOf(op).some((p) => OWNED[p.name])).length).toBeGreaterThanOrEqual(2)
  })

  it('answers every owned path parameter of another account with its 404 and nothing else', async () => {
    const swept: string[] = []
    for (const op of operations.filter((o) => paramsOf(o).length && !SHARED.has(o.id))) {
      const names = paramsOf(op).map((p) => p.name)
      const owned = ownedIn(op)
      for (const name of names) {
        for (const value of owned[name].values) {
          const url = fill(op, (n) => (n === name ? value : owned[n].values[0]))
          const res = await call(op, intruder, url)
          swept.push(`${op.method} ${url}`)
          expect([op.id, value, res.statusCode, res.json()]).toEqual([op.id, value, 404, { message: owned[name].code }])
        }
      }
    }
    expect(swept.length).toBeGreaterThanOrEqual(OWNED.ref.values.length + OWNED.lock_token.values.length)
    // Nothing the intruder did touched the owner's lock.
    const locks = await ok(await get(app, '/item/lock', owner))
    expect(locks.map((l: { lock_token: string }) => l.lock_token)).toEqual([active.lock_token])
  })

  it('serves the same requests to the owner (the swept values are real)', async () => {
    for (const ref of OWNED.ref.values.filter((v) => v !== String(completed.id) && v !== completed.invoice.toLowerCase())) {
      const res = await get(app, `/trx/${encodeURIComponent(ref)}`, owner)
      expect([ref, res.statusCode]).toEqual([ref, 200])
    }
    expect((await get(app, `/complaints/${complaint.id}`, owner)).statusCode).toBe(200)
    const retried = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${delivery.id}/retry`, headers: owner.headers })
    expect(retried.statusCode, retried.body).toBe(200)
    const release = async (token: string) =>
      (await app.inject({ method: 'DELETE', url: `/api/v1/item/lock/${token}`, headers: owner.headers })).json().message
    expect(await Promise.all([released, used, expired].map((l) => release(l.lock_token)))).toEqual([
      'LOCK_RELEASED',
      'LOCK_ALREADY_USED',
      'LOCK_EXPIRED',
    ])
  })

  it('answers the same catalog to every account on shared routes', async () => {
    for (const op of operations.filter((o) => SHARED.has(o.id))) {
      const url = fill(op, () => String(auto.id))
      const [mine, theirs] = [await call(op, owner, url), await call(op, intruder, url)]
      expect(theirs.statusCode).toBe(200)
      expect(theirs.json()).toEqual(mine.json())
    }
  })

  it('refuses a purchase presenting another account’s lock token with LOCK_NOT_FOUND, storing nothing', async () => {
    const before = await balanceOf(app, intruder)
    for (const lock of [active, released, used, expired]) {
      const ref = `intruder-lock-${lock.lock_token.slice(-6)}`
      const res = await buy(app, intruder, ref, [{ item_id: limited.id, quantity: lock.quantity }], { lock_token: lock.lock_token })
      expect([lock.lock_token, res.statusCode, res.json()]).toEqual([lock.lock_token, 404, { message: 'LOCK_NOT_FOUND' }])
      expect((await get(app, `/trx/${ref}`, intruder)).statusCode).toBe(404)
    }
    expect(await balanceOf(app, intruder)).toBe(before)
    expect((await ok(await get(app, '/item/lock', owner))).map((l: { lock_token: string }) => l.lock_token)).toEqual([active.lock_token])
  })

  it('lets another account use the same ref_id without ever answering with the owner’s transaction', async () => {
    const mine = await buy(app, intruder, completed.ref_id, [{ item_id: auto.id, quantity: 1 }])
    expect(mine.statusCode, mine.body).toBe(200)
    expect(mine.json().data.invoice).not.toBe(completed.invoice)
    const again = await buy(app, intruder, completed.ref_id, [{ item_id: auto.id, quantity: 1 }])
    expect(again.json()).toMatchObject({ message: 'REF_ID_ALREADY_EXIST', data: { invoice: mine.json().data.invoice } })
    const sbx = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: intruder.headers,
      payload: { ref_id: sandbox.ref_id, item_id: auto.id, quantity: 1 },
    })
    expect(sbx.statusCode, sbx.body).toBe(200)
    expect(sbx.json().data.invoice).not.toBe(sandbox.invoice)
    const read = await ok(await get(app, `/trx/${completed.ref_id}`, intruder))
    expect(read.invoice).toBe(mine.json().data.invoice)
    expect(JSON.stringify(read)).not.toContain(licenses[0])
  })

  it('lists nothing of the owner on any reseller route without a path parameter', async () => {
    const lists = operations.filter((o) => o.method === 'GET' && !paramsOf(o).length)
    expect(lists.length).toBeGreaterThanOrEqual(4)
    for (const op of lists) {
      const perPage = op.params.find((p) => p.name === 'per_page')
      const url = perPage ? `${op.path}?per_page=${perPage.schema.maximum ?? perPage.schema.anyOf?.[0]?.maximum ?? 50}` : op.path
      const res = await app.inject({ method: 'GET', url, headers: intruder.headers })
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
      const leaked = ownerSecrets.filter((s) => s !== completed.ref_id && s !== sandbox.ref_id && res.body.includes(s))
      expect([url, leaked]).toEqual([url, []])
    }
  })
})
