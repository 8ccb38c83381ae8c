import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/app.js'
import { createReseller, get } from '../../test/factory.js'

const { app } = await createTestApp()

const errorsOf = async (url: string, r: Awaited<ReturnType<typeof createReseller>>) => {
  const res = await get(app, url, r)
  expect(res.statusCode, url).toBe(422)
  return res.json().errors
}

describe('validation messages say how to fix the request', () => {
  it('names the bound crossed, the allowed values and the expected type', async () => {
    const r = await createReseller(app)
    // A per_page over a list's maximum is taken as the maximum (docs/design.md §3), so a bound is shown by another field.
    expect(await errorsOf('/item?per_page=5.5', r)).toEqual({ per_page: ['must be an integer, or must be "all"'] })
    expect(await errorsOf('/trx?per_page=0', r)).toEqual({ per_page: ['must be ≥ 1'] })
    // `failed` is taken as `canceled` (the public docs' word).
    expect(await errorsOf('/trx?status=done', r)).toEqual({
      status: ['must be one of: pending, paid, completed, canceled, or must be "failed"'],
    })
    expect(await errorsOf('/balance/mutations?direction=up', r)).toEqual({ direction: ['must be one of: credit, debit'] })
    expect(await errorsOf('/item/abc', r)).toEqual({ id: ['must be an integer'] })
    expect(await errorsOf('/leaderboard/profile?month=2026-13', r)).toEqual({ month: ['must be YYYY-MM, a month such as 2026-11'] })
  })

  it('takes a bare date for updated_since, and says what it wants otherwise', async () => {
    const r = await createReseller(app)
    expect((await get(app, '/item?updated_since=2026-11-22', r)).statusCode).toBe(200)
    const [sentence] = (await errorsOf('/item?updated_since=yesterday', r)).updated_since
    expect(sentence).toContain('2026-11-22T10:15:00Z')
    expect(sentence).toContain('a date such as 2026-11-22')
  })
})
