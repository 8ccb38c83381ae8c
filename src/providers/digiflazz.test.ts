import { describe, expect, it } from 'vitest'
import { readTransaction } from './digiflazz.js'

const answer = (data: Record<string, unknown>) => readTransaction({ kind: 'answer', status: 200, body: { data } })

describe('readTransaction: the price Digiflazz charged and rc 69', () => {
  it('takes a success’s price as a whole number of Rupiah (a number or digits), nothing else', () => {
    const ok = { rc: '00', status: 'Sukses', sn: 'SN1', message: 'Transaksi Sukses' }
    expect(answer({ ...ok, price: 10_150 }).price).toBe(10_150)
    expect(answer({ ...ok, price: '10150' }).price).toBe(10_150)
    for (const price of [5.12, '5.12', 0, -1, 1e15 + 1, null, undefined, 'x'])
      expect(answer({ ...ok, price }).price, String(price)).toBeUndefined()
    // A pending or failed answer charged nothing, whatever price it names.
    expect(answer({ rc: '03', status: 'Pending', price: 10_150 }).price).toBeUndefined()
  })

  it('reads rc 69 (the price above max_price) as a definite failure', () => {
    expect(answer({ rc: '69', status: 'Gagal', price: 10_150, message: 'Harga seller lebih besar dari ketentuan harga Buyer' })).toEqual({
      status: 'failed',
      sn: null,
      message: 'Harga seller lebih besar dari ketentuan harga Buyer',
    })
  })
})
