import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin, createReseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'

// The console's bank mutations page (docs/design.md §7b): a statement imported, an odd credit matched by hand, a stray one ignored.
const { app } = await createTestApp()
const operator = await signedIn(app)

describe('console: bank mutations', () => {
  it('imports a statement, lists the unmatched first, matches one to a top-up once and ignores another', async () => {
    const form = {
      name: 'Transfer Mandiri',
      type: 'bank_transfer',
      bank: 'Mandiri',
      account_number: '1370099887766',
      account_name: 'CV Pulsa Murah',
    }
    expect((await operator.post('/console/channels', { code: 'MANDIRI', ...form })).location).toBe('/console/channels?done=channel')
    // The edit page keeps the type and the account: saving it as shown changes neither.
    const edit = await operator.get('/console/channels/MANDIRI')
    expect(edit.body).toContain('<option selected>bank_transfer</option>')
    expect(edit.body).toContain('value="1370099887766"')
    await operator.post('/console/channels/MANDIRI', { ...form, name: 'Mandiri' })
    expect(await admin(app, 'GET', '/channels')).toEqual([
      expect.objectContaining({ code: 'MANDIRI', name: 'Mandiri', type: 'bank_transfer', account_number: '1370099887766' }),
    ])
    const shop = await createReseller(app)
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: shop.headers,
      payload: { amount: 200_000, channel: 'MANDIRI' },
    })
    const topup = res.json().data
    const empty = await operator.get('/console/bank-mutations')
    expect(empty.body).toContain('No mutations yet')
    const csv = `date,description,amount,type\n2026-12-06,TRF BUDI TANPA KODE,200000,CR\n2026-12-06,BUNGA,1234,CR\n2026-12-06,BIAYA ADM,5000,DB\n`
    const imported = await operator.post('/console/bank-mutations/import', { channel: 'MANDIRI', csv })
    expect(imported.location).toBe('/console/bank-mutations?done=imported')
    const page = await operator.get(imported.location!)
    expect(page.body).toContain('Statement imported')
    // Unmatched first: all three are, and each credit has its forms.
    const rows = await admin(app, 'GET', '/bank-mutations')
    expect(rows.map((m: { status: string }) => m.status)).toEqual(['unmatched', 'unmatched', 'unmatched'])
    const odd = rows.find((m: { amount: number }) => m.amount === 200_000)
    const stray = rows.find((m: { amount: number }) => m.amount === 1_234)
    expect(page.body).toContain(`/console/bank-mutations/${odd.id}/match`)
    const matched = await operator.post(`/console/bank-mutations/${odd.id}/match`, {
      topup_reference: topup.reference,
      note: 'called the buyer',
    })
    expect(matched.location).toBe('/console/bank-mutations?done=matched')
    const again = await operator.post(`/console/bank-mutations/${odd.id}/match`, { topup_reference: topup.reference })
    expect(again.status).toBe(409)
    expect(await balanceOf(app, shop)).toBe(200_000)
    expect((await operator.post(`/console/bank-mutations/${stray.id}/ignore`, {})).location).toBe('/console/bank-mutations?done=ignored')
    const after = await admin(app, 'GET', '/bank-mutations')
    expect(after.map((m: { amount: number; status: string }) => [m.amount, m.status])).toEqual([
      [5_000, 'unmatched'],
      [1_234, 'ignored'],
      [200_000, 'matched'],
    ])
  })
})
