import { describe, expect, it } from 'vitest'
import { heldReason, validPrice } from './price-hygiene.js'

describe('which listed prices a sync holds', () => {
  it('takes Digiflazz prices as positive whole Rupiah up to 10^15; a postpaid admin fee may be 0', () => {
    expect(['1', '19500', '1000000000000000'].map((p) => validPrice('digiflazz', false, p))).toEqual([true, true, true])
    expect(['0', '19500.5', '1000000000000001', '100000000000000000000'].map((p) => validPrice('digiflazz', false, p))).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(validPrice('digiflazz', true, '0')).toBe(true)
  })

  it('takes a panel’s rate per 1,000 as positive, fractional to 6 decimals', () => {
    expect(['0.9', '0.000001', '12'].map((p) => validPrice('smm_panel', false, p))).toEqual([true, true, true])
    expect(['0', '0.0000001', '1000000000000001'].map((p) => validPrice('smm_panel', false, p))).toEqual([false, false, false])
  })

  it('holds a move of more than the jump percent either way, not one of exactly it; no jump from a price never valid', () => {
    expect(heldReason('digiflazz', false, '10000', '15000', 50)).toBeUndefined()
    expect(heldReason('digiflazz', false, '10000', '15001', 50)).toBe('jump')
    expect(heldReason('digiflazz', false, '10000', '4999', 50)).toBe('jump')
    expect(heldReason('smm_panel', false, '0.9', '1.1', 50)).toBeUndefined()
    expect(heldReason('digiflazz', false, '0', '15000', 50)).toBeUndefined()
    expect(heldReason('digiflazz', false, undefined, '0', 50)).toBe('invalid')
  })
})
