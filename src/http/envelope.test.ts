import { describe, expect, it } from 'vitest'
import { ok, paginate } from './envelope.js'

describe('the response envelope', () => {
  it('ok: data, and meta only when given', () => {
    expect(ok({ balance: 5 })).toEqual({ message: 'OK', data: { balance: 5 } })
    expect(Object.keys(ok([]))).toEqual(['message', 'data'])
    expect(ok([1], { page: 1 })).toEqual({ message: 'OK', data: [1], meta: { page: 1 } })
  })

  it('paginate: the last page rounds up, and an empty list still has page 1', () => {
    expect(paginate({ page: 2, per_page: 20 }, 41)).toEqual({ page: 2, per_page: 20, total: 41, last_page: 3 })
    expect(paginate({ page: 1, per_page: 20 }, 40).last_page).toBe(2)
    expect(paginate({ page: 1, per_page: 50 }, 0)).toEqual({ page: 1, per_page: 50, total: 0, last_page: 1 })
  })
})
