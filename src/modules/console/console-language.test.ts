import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { openComplaint } from '../complaints/index.js'
import { operatorWithPassword, signInWithPassword } from '../../../test/console-team.js'

// The console in English by default and in Bahasa Indonesia on the header's switch, remembered per person
// (and per browser for the admin token's session) (./texts.ts).
const { app, ctx } = await createTestApp()
const h1 = (body: string) => /<h1>([^<]*)/.exec(body)?.[1]?.trim()

describe('console: language', () => {
  it('speaks English by default, Indonesian after the switch on every page after it, and English again after switching back', async () => {
    const operator = await signedIn(app)
    const r = await createReseller(app, { name: 'Toko Bahasa' })
    const english = await operator.get('/console')
    expect(english.body).toContain('<html lang="en">')
    expect(h1(english.body)).toBe('Overview')
    expect(english.body).toContain(
      'id="switch-language" title="Tampilkan konsol dalam Bahasa Indonesia" hreflang="id">Bahasa Indonesia</a>',
    )
    expect(english.body).toContain('href="/console?lang=id"')

    const switched = await operator.get('/console?lang=id')
    expect(switched.body).toContain('<html lang="id">')
    expect(h1(switched.body)).toBe('Ringkasan')
    expect(switched.body).toContain('<a href="/console/orders">Pesanan</a>')
    expect(switched.body).toContain('<small>Penjualan hari ini</small>')
    expect(switched.body).toContain('href="/console?lang=en"')
    // Remembered: the next pages without ?lang=, with their headings, buttons and the notices of ?done=.
    const pages: [string, string][] = [
      ['/console/orders', 'Pesanan'],
      ['/console/resellers', 'Reseller'],
      ['/console/topups', 'Top-up'],
      ['/console/complaints', 'Komplain'],
      ['/console/providers', 'Provider'],
      ['/console/items', 'Katalog'],
    ]
    for (const [path, heading] of pages) {
      const page = await operator.get(path)
      expect(page.status, path).toBe(200)
      expect(h1(page.body), path).toBe(heading)
    }
    const reseller = await operator.get(`/console/resellers/${r.id}?done=credited`)
    expect(reseller.body).toContain('<div class="notice" id="notice">Saldo disesuaikan.</div>')
    expect(reseller.body).toContain('id="toggle-status">Tangguhkan</button>')
    expect(reseller.body).toContain('confirm(&quot;Tangguhkan reseller ini?')
    // A complaint's page, with its forms.
    const rich = await createReseller(app, { name: 'Toko Komplain', balance: 100_000 })
    const item = await createItem(app, { order_process: 'manual', stock: 5, price: 15_000 })
    const order = (await buy(app, rich, 'lang-1', [{ item_id: item.id, quantity: 1, note: 'x@example.com' }])).json().data.id
    const line = (await admin(app, 'GET', `/transactions/${order}`)).items[0]
    await admin(app, 'POST', `/transactions/${order}/items/${line.id}/send`, { product_license: 'L-1' })
    const body = { order_item_id: line.id, reason: 'invalid_code' as const, message: 'kode ditolak' }
    const complaint = await openComplaint(ctx.db, { now: new Date(), days: 7 }, rich.id, 'lang-1', body, { name: 'Toko Komplain' })
    const page = await operator.get(`/console/complaints/${complaint.id}`)
    expect([page.status, h1(page.body)?.startsWith(`Komplain ${complaint.id}`)]).toEqual([200, true])
    expect(page.body).toContain('<h2>Percakapan</h2>')
    expect(page.body).toContain('<button>Kirim balasan</button>')
    // Every page speaks it (console-language-pages.test.ts walks them all), inside the Indonesian layout.
    const pricing = await operator.get('/console/pricing')
    expect([pricing.status, h1(pricing.body)]).toEqual([200, 'Aturan harga'])
    expect(pricing.body).toContain('<button id="sign-out">Keluar</button>')
    const missing = await operator.get('/console/nope')
    expect([missing.status, h1(missing.body)]).toEqual([404, 'Tidak ditemukan'])

    const back = await operator.get('/console/orders?lang=en')
    expect(h1(back.body)).toBe('Orders')
    expect(h1((await operator.get('/console')).body)).toBe('Overview')
    expect(operator.cookies.get('console_lang')).toBe('en')
  })

  it('follows a person from browser to browser: their switch is kept on their row', async () => {
    const person = await operatorWithPassword(ctx, 'viewer')
    const first = (await signInWithPassword(app, person.email)).v
    expect(h1((await first.get('/console')).body)).toBe('Overview')
    expect(h1((await first.get('/console?lang=id')).body)).toBe('Ringkasan')
    // Another browser, no cookie: their language all the same.
    const second = (await signInWithPassword(app, person.email)).v
    expect(second.cookies.get('console_lang')).toBeUndefined()
    expect(h1((await second.get('/console/orders')).body)).toBe('Pesanan')
    // Switching back there is theirs everywhere too; another person keeps the default.
    expect(h1((await second.get('/console/orders?lang=en')).body)).toBe('Orders')
    const third = (await signInWithPassword(app, person.email)).v
    expect(h1((await third.get('/console')).body)).toBe('Overview')
    const other = await operatorWithPassword(ctx, 'viewer')
    expect(h1((await (await signInWithPassword(app, other.email)).v.get('/console')).body)).toBe('Overview')
  })

  it('offers the switch on the sign-in page too, and a stray ?lang= is English', async () => {
    const stranger = visitor(app)
    const signIn = await stranger.get('/console/sign-in?lang=id')
    expect(signIn.status).toBe(200)
    expect(signIn.body).toContain('<html lang="id">')
    expect(signIn.body).toContain('>Konsol operator</a>')
    expect(h1(signIn.body)).toBe('Masuk')
    expect(signIn.body).toContain('<button id="sign-in">Masuk dengan admin token</button>')
    expect((await stranger.get('/console/sign-in?lang=xx')).body).toContain('<html lang="en">')
  })
})
