import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin } from '../../../test/factory.js'
import { addSimulatedProvider, startUpstreams, type Upstreams } from '../../../test/upstreams.js'

// docs/design.md §11c, price-list hygiene, over real HTTP against the price-list simulators: each test has
// its own provider on a fresh simulator, so one test's steering never reaches another's list.
const { app } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const opened: Upstreams[] = []
afterAll(() => Promise.all(opened.map((up) => up.close())))

let providers = 0
async function digiflazz() {
  const up = await startUpstreams()
  opened.push(up)
  const code = `held-dgf-${++providers}`
  await addSimulatedProvider(app, up, 'digiflazz', code)
  return { code, prepaid: up.digiflazz.priceLists.prepaid }
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload })
const sync = (code: string) => admin(app, 'POST', `/providers/${code}/sync?force=true`)
const product = async (code: string, sku: string) =>
  (await admin(app, 'GET', `/providers/${code}/products?per_page=500`)).find((p: { code: string }) => p.code === sku)
const held = (code: string, status = 'pending') => admin(app, 'GET', `/providers/${code}/held?status=${status}`)
const item = (id: number) => admin(app, 'GET', `/items/${id}`)
async function imported(code: string, codes: string[]) {
  const result = await admin(app, 'POST', `/providers/${code}/import`, { codes })
  return Object.fromEntries(result.created.map((c: { code: string; id: number }) => [c.code, c.id])) as Record<string, number>
}

describe('a sync holds a price it cannot trust', () => {
  it('never lists a new product priced 0, nor imports it; a linked product priced 0 keeps its price', async () => {
    const { code, prepaid } = await digiflazz()
    prepaid.change('ml86', { price: 0 })
    expect(await sync(code)).toMatchObject({ listed: 9, changes: { new: 8, held: 1 } })
    expect(await product(code, 'ml86')).toBeUndefined()
    const result = await admin(app, 'POST', `/providers/${code}/import`, { codes: ['ml86', 'tsel10'] })
    expect(result.created.map((c: { code: string }) => c.code)).toEqual(['tsel10'])
    expect(result.not_found).toEqual(['ml86'])

    prepaid.change('tsel10', { price: 0 })
    expect(await sync(code)).toMatchObject({ changes: { price: 0, held: 1 } })
    expect(await item(result.created[0].id)).toMatchObject({ cost: 10_150, price: 10_150, status: 'on' })
    expect((await held(code)).map((h: any) => `${h.code} ${h.last_applied ?? '-'}→${h.listed} ${h.reason}`)).toEqual([
      'tsel10 10150→0 invalid',
      'ml86 -→0 invalid',
    ])
  })

  it('holds a price above the money maximum while the rest of the list applies, this sync and the next', async () => {
    const { code, prepaid } = await digiflazz()
    await sync(code)
    const ids = await imported(code, ['ml86', 'tsel10', 'ff140'])
    prepaid.change('ml86', { price: 1e20 })
    prepaid.change('tsel10', { price: 10_300 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 1 } })
    expect(await item(ids.ml86!)).toMatchObject({ cost: 19_500, price: 19_500 })
    expect(await item(ids.tsel10!)).toMatchObject({ cost: 10_300, price: 10_300 })
    expect((await product(code, 'ml86')).price).toBe(19_500)

    // The next sync still applies the other changes, and logs the same held price only once.
    prepaid.change('ff140', { price: 18_500 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 0 } })
    expect(await item(ids.ff140!)).toMatchObject({ cost: 18_500, price: 18_500 })
    const [hold] = await held(code)
    expect(hold).toMatchObject({ code: 'ml86', listed: '100000000000000000000', reason: 'invalid', status: 'pending' })
    // A price out of the bounds can never be applied: it is rejected or replaced by a better list.
    const approve = await call('POST', `/providers/${code}/held/${hold.id}/approve`)
    expect(approve.statusCode).toBe(422)
    expect(approve.json().errors.id[0]).toContain('reject it')
    prepaid.change('ml86', { price: 19_600 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 0 } })
    expect(await held(code, 'superseded')).toMatchObject([{ id: hold.id }])
    expect(await item(ids.ml86!)).toMatchObject({ cost: 19_600, price: 19_600 })
  })

  it('holds a jump past SUPPLIER_PRICE_JUMP_PERCENT; approve applies and reprices it, reject ignores it until it changes', async () => {
    const { code, prepaid } = await digiflazz()
    await sync(code)
    const ids = await imported(code, ['ml86', 'ml172'])
    prepaid.change('ml86', { price: 29_251 }) // +50.01 %
    prepaid.change('ml172', { price: 19_449 }) // −50.01 %
    prepaid.change('ff140', { price: 27_300 }) // +50 % exactly: applied
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 2 } })
    const holds = await held(code)
    expect(holds.map((h: any) => `${h.code} ${h.last_applied}→${h.listed} ${h.reason}`).sort()).toEqual([
      'ml172 38900→19449 jump',
      'ml86 19500→29251 jump',
    ])
    const byCode = Object.fromEntries(holds.map((h: any) => [h.code, h.id]))

    expect(await admin(app, 'POST', `/providers/${code}/held/${byCode.ml86}/approve`)).toMatchObject({ decision: 'approved', repriced: 1 })
    expect(await item(ids.ml86!)).toMatchObject({ cost: 29_251, price: 29_251 })
    expect((await product(code, 'ml86')).price).toBe(29_251)
    expect(await admin(app, 'POST', `/providers/${code}/held/${byCode.ml172}/reject`)).toMatchObject({ decision: 'rejected', repriced: 0 })
    for (const action of ['approve', 'reject']) {
      const again = await call('POST', `/providers/${code}/held/${byCode.ml86}/${action}`)
      expect(again.statusCode).toBe(422)
      expect(again.json().message).toBe('HELD_PRICE_DECIDED')
    }

    // The rejected price is ignored while the list shows it; a new price is judged again.
    expect(await sync(code)).toMatchObject({ changes: { price: 0, held: 0 } })
    expect(await item(ids.ml172!)).toMatchObject({ cost: 38_900, price: 38_900 })
    prepaid.change('ml172', { price: 10_000 })
    expect(await sync(code)).toMatchObject({ changes: { price: 0, held: 1 } })
    expect((await held(code)).map((h: any) => `${h.code} ${h.listed}`)).toEqual(['ml172 10000'])
    prepaid.change('ml172', { price: 39_000 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 0 } })
    expect(await item(ids.ml172!)).toMatchObject({ cost: 39_000, price: 39_000 })
    expect(await held(code, 'rejected')).toMatchObject([{ code: 'ml172', listed: '19449' }])
  })

  it('answers 404 for an unknown hold or provider', async () => {
    const { code } = await digiflazz()
    await sync(code)
    for (const [url, message] of [
      [`/providers/${code}/held/999999999/approve`, 'HELD_PRICE_NOT_FOUND'],
      [`/providers/${code}/held/999999999/reject`, 'HELD_PRICE_NOT_FOUND'],
      ['/providers/nope/held/1/approve', 'PROVIDER_NOT_FOUND'],
    ]) {
      const res = await call('POST', url!)
      expect(res.statusCode, url).toBe(404)
      expect(res.json().message).toBe(message)
    }
    expect((await call('GET', '/providers/nope/held')).statusCode).toBe(404)
  })
})

describe('a panel’s rates per 1,000', () => {
  it('applies a fractional rate; holds a rate of 0 or finer than 6 decimals', async () => {
    const up = await startUpstreams()
    opened.push(up)
    const code = `held-panel-${++providers}`
    await addSimulatedProvider(app, up, 'smm_panel', code)
    await sync(code)
    up.smm.services.change('1', { rate: '0.95' })
    up.smm.services.change('2', { rate: '0' })
    up.smm.services.change('3', { rate: '0.0200001' })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 2 } })
    expect((await product(code, '1')).price).toBe(0.95)
    expect((await held(code)).map((h: any) => `${h.code} ${h.listed} ${h.reason}`).sort()).toEqual(['2 0 invalid', '3 0.0200001 invalid'])
  })
})

describe('a price at the money maximum', () => {
  it('is applied (approved) even where its rule would mark it up past the maximum: the price stops there', async () => {
    const { code, prepaid } = await digiflazz()
    await sync(code)
    const ids = await imported(code, ['ml86'])
    const rule = await call('PUT', '/pricing-rules', { scope: 'provider', provider: code, percent: 10 })
    expect(rule.statusCode, rule.body).toBe(200)
    prepaid.change('ml86', { price: 1e15 })
    prepaid.change('tsel10', { price: 10_200 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 1 } })
    const [hold] = await held(code)
    const approved = await call('POST', `/providers/${code}/held/${hold.id}/approve`)
    expect(approved.statusCode, approved.body).toBe(200)
    expect(await item(ids.ml86!)).toMatchObject({ cost: 1e15, price: 1e15 })
    prepaid.change('tsel10', { price: 10_300 })
    expect(await sync(code)).toMatchObject({ changes: { price: 1, held: 0 } })
  })
})
