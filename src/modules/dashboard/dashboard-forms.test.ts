import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { PASSWORD, dashboardVisitor } from '../../../test/dashboard.js'
import { createReseller } from '../../../test/factory.js'

// docs/design.md §13: a refused form comes back as itself, the typed values kept, the sentence next to its
// field in the page's language, amounts as Rupiah, never a code, a field key or the API's English.
const { app, ctx } = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1000' })
let n = 0
const email = (who: string) => `${who}-${++n}@toko.example`

/** The sentence shown next to a field (its id is `<name>-error`), or undefined. */
const besideField = (body: string, name: string) =>
  new RegExp(`<span class="field-error" id="${name.replaceAll('_', '-')}-error">([^<]*)</span>`).exec(body)?.[1]?.replaceAll('&#34;', '"')

/** What a reseller must never read on a refused form. */
function expectNoApiLeftovers(body: string) {
  const main = body.slice(body.indexOf('<main>'))
  for (const raw of ['VALIDATION_ERROR', 'DUPLICATE', '422', 'must be', 'ip_allowlist.', 'is required']) expect(main).not.toContain(raw)
}

async function ownerOf(balance = 0) {
  const shop = await createReseller(app, { balance })
  return { shop, owner: await dashboardVisitor(app, shop.id, email('owner')) }
}

describe('refused forms in Bahasa Indonesia, next to their fields', () => {
  it('top-up: the channel minimum in Rupiah, a non-number, the typed amount and channel kept', async () => {
    const { owner } = await ownerOf()
    const code = `QRISF${++n}`
    await ctx.db
      .insertInto('payment_channels')
      .values({ code, name: `QRIS Toko ${n}`, type: 'qris', fee_flat: 750, min_amount: 10_000 })
      .execute()
    await owner.get('/dashboard/topup')
    const small = await owner.post('/dashboard/topup', { amount: '5.000', channel: code })
    expect(small.status).toBe(422)
    expect(besideField(small.body, 'amount')).toBe(`Minimal Rp 10.000 untuk QRIS Toko ${n}.`)
    expect(small.body).toContain('id="amount" inputmode="numeric" required value="5.000" aria-invalid="true"')
    expect(small.body).toContain(`<option value="${code}" selected>`)
    expectNoApiLeftovers(small.body)

    const words = await owner.post('/dashboard/topup', { amount: 'seratus ribu', channel: code })
    expect(besideField(words.body, 'amount')).toMatch(/^Tulis jumlah Rupiah dengan angka saja/)
    expect(words.body).toContain('value="seratus ribu"')
    expectNoApiLeftovers(words.body)

    // The price check above the form says it there too, instead of an error page.
    const priced = await owner.get('/dashboard/topup?amount=abc')
    expect([priced.status, besideField(priced.body, 'amount')?.startsWith('Tulis jumlah Rupiah')]).toEqual([422, true])
  })

  it('IP allow-list: the entry that is not an address named, the typed list and the box kept', async () => {
    const { owner } = await ownerOf()
    await owner.get('/dashboard/allow-list')
    const typed = '203.0.113.7\nkantor-pusat'
    const res = await owner.post('/dashboard/allow-list', { ip_allowlist: typed, add_mine: 'on' })
    expect(res.status).toBe(422)
    expect(besideField(res.body, 'ip_allowlist')).toBe('"kantor-pusat" bukan alamat IP atau CIDR. Contoh: 203.0.113.7 atau 203.0.113.0/24.')
    expect(res.body).toContain(`>${typed}</textarea>`)
    expect(res.body).toMatch(/id="add-mine" checked>/)
    expectNoApiLeftovers(res.body)
  })

  it('webhook settings: the URL rule and the missing secret, the typed URL kept; English on the switch', async () => {
    const { owner } = await ownerOf()
    await owner.get('/dashboard/webhook')
    const plain = await owner.post('/dashboard/webhook', { callback_url: 'http://toko.example/hook' })
    expect(plain.status).toBe(422)
    expect(besideField(plain.body, 'callback_url')).toBe('URL harus memakai https (http hanya untuk localhost).')
    expect(plain.body).toContain('value="http://toko.example/hook"')
    expectNoApiLeftovers(plain.body)

    const noSecret = await owner.post('/dashboard/webhook', { callback_url: 'https://toko.example/hook', webhook_enabled: 'on' })
    expect(besideField(noSecret.body, 'webhook_enabled')).toMatch(/^Buat secret dulu/)
    expect(noSecret.body).toMatch(/id="webhook-enabled" checked/)

    await owner.get('/dashboard/webhook?lang=en')
    const english = await owner.post('/dashboard/webhook', { callback_url: 'toko.example' })
    expect(besideField(english.body, 'callback_url')).toBe(
      'Write the whole URL, starting with https://, like https://shop.example/webhook.',
    )
    expectNoApiLeftovers(english.body)
  })

  it('users: a bad email and one already a user, with the typed email and role kept', async () => {
    const { shop, owner } = await ownerOf()
    await owner.get('/dashboard/users')
    const bad = await owner.post('/dashboard/users', { email: 'budi-di-toko', role: 'owner' })
    expect(bad.status).toBe(422)
    expect(besideField(bad.body, 'email')).toMatch(/^Tulis alamat email yang lengkap/)
    expect(bad.body).toContain('value="budi-di-toko"')
    expect(bad.body).toContain('<option value="owner" selected>')
    expectNoApiLeftovers(bad.body)
    const taken = email('taken')
    await dashboardVisitor(app, shop.id, taken, 'staff')
    const again = await owner.post('/dashboard/users', { email: taken, role: 'staff' })
    expect([again.status, besideField(again.body, 'email')]).toEqual([422, 'Email ini sudah menjadi pengguna akun ini.'])
    expectNoApiLeftovers(again.body)
  })

  it('password: each field its own sentence (passwords never written back)', async () => {
    const { owner } = await ownerOf()
    await owner.get('/dashboard/password')
    const wrong = await owner.post('/dashboard/password', {
      current_password: 'not it',
      password: 'x'.repeat(12),
      password_again: 'x'.repeat(12),
    })
    expect([wrong.status, besideField(wrong.body, 'current_password')]).toEqual([422, 'Bukan kata sandi Anda sekarang.'])
    const short = await owner.post('/dashboard/password', { current_password: PASSWORD, password: 'pendek', password_again: 'pendek' })
    expect(besideField(short.body, 'password')).toBe('Minimal 10 karakter.')
    const differ = await owner.post('/dashboard/password', {
      current_password: PASSWORD,
      password: 'x'.repeat(12),
      password_again: 'y'.repeat(12),
    })
    expect(besideField(differ.body, 'password_again')).toBe('Harus sama persis dengan kata sandi baru.')
    expect(differ.body).not.toContain('x'.repeat(12))
    expectNoApiLeftovers(differ.body)
  })
})
