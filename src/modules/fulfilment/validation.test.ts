import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { addSimulatedProvider, startUpstreams } from '../../../test/upstreams.js'

// validation.fields as the public docs show them: { key, label, required }.
const CUSTOMER_FIELDS = [{ key: 'customer_id', label: 'User ID or customer number', required: true }]
const ZONE_FIELDS = [...CUSTOMER_FIELDS, { key: 'zone_id', label: 'Zone ID (server)', required: true }]

// docs/design.md §5b: account validation through the provider (Digiflazz inquiry-pln) or the validation source, cached.
const up = await startUpstreams()
afterAll(() => up.close())
const { app } = await createTestApp({ VALIDATION_SOURCE_URL: `${up.base}/validation`, PROVIDER_TIMEOUT_MS: '3000' })
await addSimulatedProvider(app, up, 'digiflazz', 'dgf-v')
const game = await createItem(app, {
  product_name: 'Mobile Legends',
  name: '86 Diamonds',
  order_process: 'h2h',
  unlimited_stock: true,
  provider: 'dgf-v',
  provider_code: 'ml86',
  provider_meta: { validation: true, requires_zone_id: true },
})
const pln = await createItem(app, {
  product_name: 'PLN Token',
  name: 'Token 20.000',
  order_process: 'h2h',
  unlimited_stock: true,
  provider: 'dgf-v',
  provider_code: 'pln20',
  provider_meta: { validation: true },
})
const plain = await createItem(app, {
  product_name: 'Pulsa',
  name: 'Tsel 10',
  order_process: 'h2h',
  unlimited_stock: true,
  provider: 'dgf-v',
  provider_code: 'tsel10',
})
const r = await createReseller(app)
const validate = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/item/validate', headers: r.headers, payload })

describe('POST /v1/item/validate', () => {
  it('checks a game account with its zone through the validation source, then answers from the cache', async () => {
    const first = await validate({ item_id: game.id, customer_id: '12345671', zone_id: '2001' })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual({
      message: 'OK',
      data: {
        display_name: 'Player5671 (ID-2001)',
        account_name: 'Player5671',
        region: 'ID-2001',
        cached: false,
        details: { name: 'Player5671', region: 'ID-2001' },
      },
    })
    const second = await validate({ item_id: game.id, customer_id: '12345671', zone_id: '2001' })
    expect(second.json().data).toMatchObject({ account_name: 'Player5671', cached: true })
    expect(up.validation.checks.filter((c) => c.id === '12345671')).toEqual([{ product: 'ml86', id: '12345671', zone: '2001' }])
  })

  it("checks a PLN meter through the provider's inquiry-pln", async () => {
    const res = await validate({ item_id: pln.id, customer_id: '530000001' })
    expect(res.json()).toEqual({
      message: 'OK',
      data: {
        display_name: 'PELANGGAN 0001',
        account_name: 'PELANGGAN 0001',
        region: 'R1 /000001300',
        cached: false,
        details: { name: 'PELANGGAN 0001', region: 'R1 /000001300', segment_power: 'R1 /000001300' },
      },
    })
    expect((await validate({ item_id: pln.id, customer_id: '530000002' })).json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { customer_id: ['Nomor meter/IDPel salah'] },
    })
  })

  it('refuses what cannot be validated, an unknown account, a missing zone; a source that is down is a 503', async () => {
    expect((await validate({ item_id: plain.id, customer_id: '0812' })).json()).toEqual({ message: 'VALIDATION_NOT_AVAILABLE' })
    const auto = await createAutoItem(app, 1)
    expect((await validate({ item_id: auto.id, customer_id: '0812' })).json()).toEqual({ message: 'VALIDATION_NOT_AVAILABLE' })
    expect((await validate({ item_id: 999_999, customer_id: '0812' })).json().message).toBe('ITEM_NOT_FOUND')
    expect((await validate({ item_id: game.id, customer_id: '1232', zone_id: '1' })).json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { customer_id: ['account not found'] },
    })
    expect((await validate({ item_id: game.id, customer_id: '1231' })).json()).toEqual({
      message: 'VALIDATION_ERROR',
      errors: { zone_id: ['is required for this item'] },
    })
    up.hang = true
    const down = await validate({ item_id: game.id, customer_id: '9991', zone_id: '1' })
    up.hang = false
    expect([down.statusCode, down.json().message]).toEqual([503, 'SERVICE_UNAVAILABLE'])
  })
})

describe('GET /v1/validation/services', () => {
  it('lists the products and variants that validate, by search', async () => {
    const all = (await app.inject({ method: 'GET', url: '/api/v1/validation/services', headers: r.headers })).json()
    // The public docs' meta (total_items) beside the earlier total_variants.
    expect(all.meta).toEqual({ total_products: 2, total_items: 2, total_variants: 2 })
    const ml = all.data.find((p: any) => p.product_name === 'Mobile Legends')
    expect(ml.variants).toEqual([{ item_id: game.id, name: '86 Diamonds', requires_zone_id: true, fields: ZONE_FIELDS }])
    // Each product's validation metadata names the endpoint.
    expect(ml.validation).toEqual({
      available: true,
      requires_zone_id: true,
      fields: ZONE_FIELDS,
      endpoint: '/api/v1/item/validate',
    })
    expect(all.data.find((p: any) => p.variants[0].item_id === pln.id).validation).toEqual({
      available: true,
      requires_zone_id: false,
      fields: CUSTOMER_FIELDS,
      endpoint: '/api/v1/item/validate',
    })
    const found = (await app.inject({ method: 'GET', url: '/api/v1/validation/services?search=pln', headers: r.headers })).json()
    expect(found.data.map((p: any) => p.variants[0].item_id)).toEqual([pln.id])
    expect((await app.inject({ method: 'GET', url: '/api/v1/validation/services?search=%25', headers: r.headers })).json().data).toEqual([])
  })

  it('offers none for an h2h item marked validation at a provider of another kind: the catalog, the check and the list agree', async () => {
    // offers_validation() (catalog/sources.sql) is the one rule all three read.
    await addSimulatedProvider(app, up, 'smm_panel', 'smm-v')
    const astray = await createItem(app, {
      product_name: 'Free Fire',
      name: '70 Diamonds',
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'smm-v',
      provider_code: 'ff70',
      provider_meta: { validation: true },
    })
    expect((await validate({ item_id: astray.id, customer_id: '0812' })).json()).toEqual({ message: 'VALIDATION_NOT_AVAILABLE' })
    const listed = (await app.inject({ method: 'GET', url: '/api/v1/validation/services', headers: r.headers })).json()
    expect(listed.data.flatMap((p: any) => p.variants.map((v: any) => v.item_id)).sort()).toEqual([game.id, pln.id].sort())
    const shown = (await app.inject({ method: 'GET', url: `/api/v1/item/${astray.id}`, headers: r.headers })).json()
    expect(shown.data.validation).toEqual({ available: false, requires_zone_id: false, fields: [], endpoint: null })
    const ok = (await app.inject({ method: 'GET', url: `/api/v1/item/${game.id}`, headers: r.headers })).json()
    expect(ok.data.validation.available).toBe(true)
  })
})
