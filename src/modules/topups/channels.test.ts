import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createReseller, get } from '../../../test/factory.js'
import { COMMANDS } from '../../cli/commands.js'
import { seedDemo } from '../admin/index.js'
import { channelFee } from './fees.js'

const { app } = await createTestApp()
const reseller = await createReseller(app)
const operator = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload })

describe('payment channels', () => {
  it('are created by the operator with defaults, and a second of one code is DUPLICATE', async () => {
    const qris = await admin(app, 'POST', '/channels', { code: 'QRIS', name: 'QRIS', type: 'qris', fee_flat: 750, fee_percent: 0.7 })
    expect(qris).toMatchObject({ code: 'QRIS', fee_flat: 750, fee_percent: 0.7, min_amount: 10_000, max_amount: 10_000_000, active: true })
    const again = await operator('POST', '/channels', { code: 'QRIS', name: 'Other', type: 'qris' })
    expect([again.statusCode, again.json()]).toEqual([409, { message: 'DUPLICATE' }])
  })

  it('refuses bad fields by name', async () => {
    const cases: [object, string][] = [
      [{ code: 'X1', name: 'x', type: 'card' }, 'type'],
      [{ code: 'X1', name: 'x', type: 'va', fee_percent: 101 }, 'fee_percent'],
      [{ code: 'X1', name: 'x', type: 'va', min_amount: 9_999 }, 'min_amount'],
      [{ code: 'X1', name: 'x', type: 'va', min_amount: 50_000, max_amount: 20_000 }, 'max_amount'],
      [{ code: 'bad code', name: 'x', type: 'va' }, 'code'],
      [{ code: 'X1', name: 'x', type: 'va', fee_flat: '100' }, 'fee_flat'],
      [{ code: 'X1', name: 'x', type: 'va', fee_percent: 0.1234 }, 'fee_percent'],
    ]
    for (const [payload, field] of cases) {
      const res = await operator('POST', '/channels', payload)
      expect([payload, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([payload, 422, [field]])
    }
  })

  it('change only the named columns (unknown fields ignored), keep min ≤ max, and 404 for an unknown code', async () => {
    await admin(app, 'POST', '/channels', { code: 'BRIVA', name: 'BRI VA', type: 'va', fee_flat: 4_250 })
    const changed = await admin(app, 'PATCH', '/channels/BRIVA', {
      fee_flat: 4_000,
      code: 'HACKED',
      created_at: '2000-01-01T00:00:00Z',
      active: false,
    })
    expect(changed).toMatchObject({ code: 'BRIVA', name: 'BRI VA', fee_flat: 4_000, active: false })
    expect(new Date(changed.created_at).getFullYear()).toBeGreaterThan(2000)
    const inverted = await operator('PATCH', '/channels/BRIVA', { min_amount: 20_000_000 })
    expect([inverted.statusCode, Object.keys(inverted.json().errors)]).toEqual([422, ['max_amount']])
    const missing = await operator('PATCH', '/channels/NOPE', { active: true })
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'CHANNEL_NOT_FOUND' }])
  })

  it('are listed to resellers as docs/design.md §7: fee for the minimum, or for the amount asked', async () => {
    const list = (await get(app, '/balance/channels', reseller)).json()
    expect(list.message).toBe('OK')
    expect(list.data).toEqual([
      {
        code: 'BRIVA',
        name: 'BRI VA',
        type: 'va',
        fee: 4_000,
        fee_flat: 4_000,
        fee_percent: 0,
        amount: 10_000,
        total: 14_000,
        min_amount: 10_000,
        max_amount: 10_000_000,
        status: 'off',
      },
      {
        code: 'QRIS',
        name: 'QRIS',
        type: 'qris',
        fee: 750 + 70,
        fee_flat: 750,
        fee_percent: 0.7,
        amount: 10_000,
        total: 10_820,
        min_amount: 10_000,
        max_amount: 10_000_000,
        status: 'on',
      },
    ])
    const priced = (await get(app, '/balance/channels?amount=100001', reseller)).json().data
    expect(priced.find((c: { code: string }) => c.code === 'QRIS')).toMatchObject({ fee: 750 + 701, amount: 100_001, total: 101_452 })
    // The listing prices an amount exactly as the top-up then charges it.
    const topup = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: reseller.headers,
      payload: { amount: 100_001, channel: 'QRIS' },
    })
    expect(topup.statusCode, topup.body).toBe(200)
    expect(topup.json().data).toMatchObject({ fee: 750 + 701, total: 101_452 })
  })

  it('round the percentage up to the Rupiah, exactly even at 10^15', () => {
    expect(channelFee({ fee_flat: 0, fee_percent: 0.7 }, 10_000)).toBe(70)
    expect(channelFee({ fee_flat: 0, fee_percent: 0.7 }, 10_001)).toBe(71)
    expect(channelFee({ fee_flat: 5, fee_percent: 3 }, 1e15)).toBe(3e13 + 5)
    expect(channelFee({ fee_flat: 0, fee_percent: 0.001 }, 100_000)).toBe(1)
  })

  it('have CLI commands that send named fields', () => {
    expect(
      COMMANDS['channels:create'].body!({ code: 'OVO', name: 'OVO', type: 'ewallet', 'fee-percent': '3', 'min-amount': '20000' }, []),
    ).toEqual({
      code: 'OVO',
      name: 'OVO',
      type: 'ewallet',
      fee_percent: 3,
      min_amount: 20_000,
    })
    expect(COMMANDS['channels:update'].path(['QRIS'])).toBe('/channels/QRIS')
    expect(COMMANDS['topups:pay'].path(['SIMABC'])).toBe('/topups/SIMABC/pay')
    expect(() => COMMANDS['channels:update'].body!({ 'fee-percent': 'lots' }, ['QRIS'])).toThrow('--fee-percent')
  })

  it('are seeded by the demo: a QRIS, a virtual account and an e-wallet', async () => {
    const demo = await createTestApp()
    const seeded = await seedDemo(demo.ctx)
    const res = await demo.app.inject({ method: 'GET', url: '/api/v1/balance/channels', headers: { 'x-apikey': seeded!.apiKey } })
    expect(res.json().data.map((c: { code: string; type: string; status: string }) => [c.code, c.type, c.status])).toEqual([
      ['BRIVA', 'va', 'on'],
      ['DANA', 'ewallet', 'on'],
      ['QRIS', 'qris', 'on'],
    ])
  })
})
