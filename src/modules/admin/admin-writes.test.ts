import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { MAX_MONEY } from '../ledger/index.js'

// Operator writes name their columns (docs/design.md §3, §11): whatever else a body carries is never stored.
const { app, ctx } = await createTestApp()

const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })
const accountRow = (id: number) => ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const itemRow = (id: number) => ctx.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const providerRow = (code: string) => ctx.db.selectFrom('providers').selectAll().where('code', '=', code).executeTakeFirstOrThrow()
const ledgerSum = async (id: number) => {
  const { rows } = await sql<{
    sum: number
  }>`SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0)::bigint AS sum FROM ledger_entries WHERE account_id = ${id}`.execute(
    ctx.db,
  )
  return Number(rows[0].sum)
}

describe('PATCH /resellers/{id}', () => {
  it('never writes a column it does not name: balance, created_at and id stay, the balance equals its ledger', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const before = await accountRow(r.id)
    const res = await call('PATCH', `/resellers/${r.id}`, {
      balance: 777_777_777,
      created_at: '2000-01-01T00:00:00Z',
      updated_at: '2000-01-01T00:00:00Z',
      id: 999_999,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ id: r.id, balance: 50_000 })
    expect(await accountRow(r.id)).toEqual(before)
    expect(await ledgerSum(r.id)).toBe(50_000)
    expect(await balanceOf(app, r)).toBe(50_000)
    await assertInvariants(ctx.db)
  })

  it('applies the fields it names and ignores the others in the same body', async () => {
    const r = await createReseller(app, { balance: 1_000 })
    const res = await call('PATCH', `/resellers/${r.id}`, {
      name: 'Renamed',
      status: 'suspended',
      balance: 5,
      created_at: '2000-01-01T00:00:00Z',
    })
    expect(res.statusCode).toBe(200)
    const row = await accountRow(r.id)
    expect(row).toMatchObject({ name: 'Renamed', status: 'suspended', balance: 1_000 })
    expect(row.created_at.getUTCFullYear()).toBeGreaterThan(2000)
    expect(await ledgerSum(r.id)).toBe(1_000)
  })

  it('stores max_active_locks: null as NULL, so the account locks again at the default cap', async () => {
    // Locks are worth at most the balance (docs/design.md §6): ten of a Rp 10,000 item.
    const r = await createReseller(app, { balance: 100_000 })
    const item = await createAutoItem(app, 20)
    const lock = () =>
      app.inject({ method: 'POST', url: '/api/v1/item/lock', headers: r.headers, payload: { item_id: item.id, quantity: 1 } })
    await admin(app, 'PATCH', `/resellers/${r.id}`, { max_active_locks: 0 })
    expect((await lock()).json()).toEqual({ message: 'MAX_ACTIVE_LOCKS_REACHED' })

    const res = await call('PATCH', `/resellers/${r.id}`, { max_active_locks: null })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.max_active_locks).toBeNull()
    expect((await accountRow(r.id)).max_active_locks).toBeNull()
    // The default cap of the test config (MAX_ACTIVE_LOCKS, 10).
    for (let i = 0; i < ctx.config.maxActiveLocks; i++) expect((await lock()).statusCode).toBe(201)
    expect((await lock()).json()).toEqual({ message: 'MAX_ACTIVE_LOCKS_REACHED' })
  })
})

describe('POST /items and PATCH /items/{id}', () => {
  it('never renumbers an item or changes its order_process', async () => {
    const item = await createItem(app, { order_process: 'manual', stock: 5 })
    const before = await itemRow(item.id)
    for (const body of [{ id: 999_999 }, { order_process: 'h2h' }, { product_id: 999, created_at: '2000-01-01T00:00:00Z' }]) {
      const res = await call('PATCH', `/items/${item.id}`, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(200)
      expect(await itemRow(item.id)).toEqual(before)
    }
    expect(await ctx.db.selectFrom('items').select('id').where('id', '=', 999_999).executeTakeFirst()).toBeUndefined()
  })

  it('changes the named fields and keeps only the known keys of provider_meta and required_fields', async () => {
    const item = await createItem(app, { order_process: 'manual', stock: 5 })
    const res = await call('PATCH', `/items/${item.id}`, {
      price: 12_345,
      order_process: 'auto',
      provider_meta: { open_denom: true, min_qty: 2, injected: 'x' },
      required_fields: [{ key: 'note', label: 'Number', required: true, injected: 'x' }],
    })
    expect(res.statusCode).toBe(200)
    const row = await itemRow(item.id)
    expect(row).toMatchObject({ price: 12_345, order_process: 'manual' })
    expect(row.provider_meta).toEqual({ open_denom: true, min_qty: 2 })
    expect(row.required_fields).toEqual([{ key: 'note', label: 'Number', required: true }])
  })

  it('creates an item from the named fields only', async () => {
    const res = await call('POST', '/items', {
      product_name: 'Create Allow-list',
      name: 'Variant',
      price: 1_000,
      order_process: 'manual',
      id: 424_242,
      created_at: '2000-01-01T00:00:00Z',
      provider_meta: { step_qty: 5, injected: 'x' },
      required_fields: [{ key: 'k', label: 'L', required: false, injected: 'x' }],
    })
    expect(res.statusCode).toBe(200)
    const row = await itemRow(res.json().data.id)
    expect(row.id).not.toBe(424_242)
    expect(row.created_at.getUTCFullYear()).toBeGreaterThan(2000)
    expect(row.provider_meta).toEqual({ step_qty: 5 })
    expect(row.required_fields).toEqual([{ key: 'k', label: 'L', required: false }])
  })
})

describe('POST /providers and PATCH /providers/{code}', () => {
  it('ignores a code or a raw api_key_enc in a PATCH instead of answering 500 or storing it', async () => {
    await admin(app, 'POST', '/providers', {
      code: 'allow-h2h',
      kind: 'digiflazz',
      base_url: 'http://127.0.0.1:9/v1',
      api_key_enc: 'plain-on-create',
    })
    expect((await providerRow('allow-h2h')).api_key_enc).toBeNull()
    await createItem(app, { order_process: 'h2h', provider: 'allow-h2h', provider_code: 'X1' })
    const before = await providerRow('allow-h2h')
    for (const body of [{ code: 'renamed' }, { api_key_enc: 'plain' }, { created_at: '2000-01-01T00:00:00Z', has_api_key: true }]) {
      const res = await call('PATCH', '/providers/allow-h2h', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(200)
      expect(res.json().data).toMatchObject({ code: 'allow-h2h', has_api_key: false })
      expect(await providerRow('allow-h2h')).toEqual(before)
    }
    expect(await ctx.db.selectFrom('providers').select('code').where('code', '=', 'renamed').executeTakeFirst()).toBeUndefined()
  })

  it('stores an api_key sent by its own name encrypted, beside the other named fields', async () => {
    await admin(app, 'POST', '/providers', { code: 'allow-smm', kind: 'smm_panel', base_url: 'http://127.0.0.1:9/api/v2' })
    const res = await call('PATCH', '/providers/allow-smm', {
      api_key: 'secret-key-1',
      base_url: 'http://127.0.0.1:10/api/v2/',
      api_key_enc: 'plain',
    })
    expect(res.statusCode).toBe(200)
    const row = await providerRow('allow-smm')
    expect(row.base_url).toBe('http://127.0.0.1:10/api/v2')
    expect(row.api_key_enc).not.toBe('plain')
    expect(ctx.vault.decrypt(row.api_key_enc!)).toBe('secret-key-1')
  })

  it('refuses a base_url without a host, on create and on change', async () => {
    for (const base_url of ['https://', 'http:///v1', 'https://?x']) {
      const created = await call('POST', '/providers', { code: 'no-host', kind: 'digiflazz', base_url })
      expect([created.statusCode, Object.keys(created.json().errors ?? {})], base_url).toEqual([422, ['base_url']])
      const changed = await call('PATCH', '/providers/allow-smm', { base_url })
      expect([changed.statusCode, Object.keys(changed.json().errors ?? {})], base_url).toEqual([422, ['base_url']])
    }
    expect((await providerRow('allow-smm')).base_url).toBe('http://127.0.0.1:10/api/v2')
  })
})

describe('POST /resellers/{id}/balance bounds', () => {
  it('answers 422 on amount for a credit that would take the balance over 10^15, and stays exact up to it', async () => {
    const r = await createReseller(app)
    await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: MAX_MONEY - 100, reason: 'near the top', reference: 'top-1' })
    const over = await call('POST', `/resellers/${r.id}/balance`, { amount: 101, reason: 'one too many' })
    expect(over.statusCode).toBe(422)
    expect(over.json().message).toBe('VALIDATION_ERROR')
    expect(Object.keys(over.json().errors)).toEqual(['amount'])
    expect(await balanceOf(app, r)).toBe(MAX_MONEY - 100)
    // A repeated reference still answers the entry it made.
    const again = await call('POST', `/resellers/${r.id}/balance`, { amount: MAX_MONEY - 100, reason: 'near the top', reference: 'top-1' })
    expect([again.statusCode, again.json().data.applied]).toEqual([200, false])
    const exact = await admin(app, 'POST', `/resellers/${r.id}/balance`, { amount: 100, reason: 'to the top' })
    expect(exact.entry.balance_after).toBe(MAX_MONEY)
    for (const amount of [MAX_MONEY + 1, -(MAX_MONEY + 1), 2 ** 53 + 2]) {
      const res = await call('POST', `/resellers/${r.id}/balance`, { amount, reason: 'schema bound' })
      expect(res.statusCode, String(amount)).toBe(422)
      expect(Object.keys(res.json().errors)).toEqual(['amount'])
    }
    expect(await balanceOf(app, r)).toBe(MAX_MONEY)
    expect(await ledgerSum(r.id)).toBe(MAX_MONEY)
    await assertInvariants(ctx.db)
  })
})
