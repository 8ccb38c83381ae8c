import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin } from '../../../test/factory.js'

// A refused console form in the page's language (./refusals.ts): in Bahasa Indonesia the sentences of the
// table the dashboard's forms use too (http/web-refusals.ts), never the schema's English; in English the
// operator API's own words, the same a JSON call gets.
const { app } = await createTestApp()
const operator = await signedIn(app)
const fieldError = (html: string, name: string) => new RegExp(`id="${name}-error">([^<]+)<`).exec(html)?.[1]
/** The error page's lines: its code line, then each field with its sentences. */
const errorLines = (html: string) =>
  [.../<div class="error" id="error">([\s\S]*?)<\/div>/.exec(html)![1]!.matchAll(/<(?:p|li)>([\s\S]*?)<\/(?:p|li)>/g)].map((m) =>
    m[1]!.replace(/<[^>]*>/g, ''),
  )
const level = { code: 'gold', name: 'Gold', position: '9999999', promote_at: '', promote_to: '' }

describe('console: refused forms in the page’s language', () => {
  it('says a schema’s bound next to its field in Indonesian, and in the API’s English on the switch', async () => {
    await operator.get('/console/price-levels?lang=id')
    const refused = await operator.post('/console/price-levels', level)
    expect(refused.status).toBe(422)
    expect(fieldError(refused.body, 'position')).toBe('Maksimal 1000000.')
    expect(refused.body).not.toMatch(/Expected|must be/)
    expect(refused.body).toContain('value="Gold"')

    await operator.get('/console/price-levels?lang=en')
    const english = await operator.post('/console/price-levels', level)
    expect(fieldError(english.body, 'position')).toBe('must be ≤ 1000000')
    // The operator API refuses the same value in the same words.
    const api = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/price-levels',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { code: 'gold', name: 'Gold', position: 9_999_999 },
    })
    expect([api.statusCode, api.json().errors]).toEqual([422, { position: ['must be ≤ 1000000'] }])
  })

  it('says the error page’s field sentences and the service’s detail in Indonesian, in English on the switch', async () => {
    await admin(app, 'POST', '/providers', { code: 'thr', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1' })
    await operator.get('/console/providers?lang=id')
    const hours = await operator.post('/console/providers/thr/thresholds', { balance_alert_below: '', balance_alert_hours: '0' })
    expect(hours.status).toBe(422)
    expect(errorLines(hours.body)).toEqual(['422 VALIDATION_ERROR', 'balance_alert_hours Minimal 0.01.'])
    expect(hours.body).toContain('<h1>Periksa isian</h1>')

    expect((await operator.post('/console/categories', { name: 'Ganda', icon: '' })).status).toBe(303)
    const twice = await operator.post('/console/categories', { name: 'Ganda', icon: '' })
    expect(twice.status).toBe(409)
    expect(errorLines(twice.body)).toEqual(['409 DUPLICATE: Kategori Ganda sudah ada.'])

    await operator.get('/console/providers?lang=en')
    const english = await operator.post('/console/providers/thr/thresholds', { balance_alert_below: '', balance_alert_hours: '0' })
    expect(errorLines(english.body)).toEqual(['422 VALIDATION_ERROR', 'balance_alert_hours must be ≥ 0.01'])
    expect(english.body).toContain('<h1>Check the form</h1>')
    const again = await operator.post('/console/categories', { name: 'Ganda', icon: '' })
    expect(errorLines(again.body)).toEqual(['409 DUPLICATE: category Ganda exists'])
  })
})
