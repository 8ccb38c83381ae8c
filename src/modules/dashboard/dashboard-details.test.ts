import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { dashboardVisitor } from '../../../test/dashboard.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// docs/design.md §13: what a reseller reads on the detail pages, in Bahasa Indonesia: a manual line's
// note from the operator, a top-up's amount, fee, total, channel and expiry (WIB), the top-ups still
// waiting with their payment links, the ledger's descriptions and H2H-free statuses in the page's words.
const { app, ctx } = await createTestApp()
let n = 0

describe('the detail pages', () => {
  it('shows the operator’s note on a manual line once it is sent, and the ledger in Indonesian', async () => {
    const shop = await createReseller(app, { balance: 100_000 })
    const owner = await dashboardVisitor(app, shop.id, `note-${++n}@toko.example`)
    const auto = await createAutoItem(app, 1, { price: 5_000 })
    const manual = await createItem(app, { order_process: 'manual', stock: 2, price: 3_000 })
    const bought = await buy(app, shop, `note-${n}`, [
      { item_id: auto.id, quantity: 1 },
      { item_id: manual.id, quantity: 1, note: 'me@example.com' },
    ])
    const invoice = bought.json().data.invoice as string
    const before = await owner.get(`/dashboard/transactions/${invoice}`)
    expect(before.body).not.toContain('class="seller-note"')

    const order = await admin(app, 'GET', `/transactions/${bought.json().data.id}`)
    const line = order.items.find((l: { order_process: string }) => l.order_process === 'manual')
    await admin(app, 'POST', `/transactions/${order.id}/items/${line.id}/send`, {
      product_license: 'AKUN-77',
      note: 'Login pakai email pembeli; ganti sandi setelah masuk.',
    })
    const after = await owner.get(`/dashboard/transactions/${invoice}`)
    expect(after.body).toMatch(
      /<div class="seller-note" id="note-\d+"><b>Catatan operator:<\/b> Login pakai email pembeli; ganti sandi setelah masuk.<\/div>/,
    )
    expect(after.body).toMatch(/\d\d[.:]\d\d WIB/)

    const ledger = await owner.get('/dashboard/ledger')
    expect(ledger.body).toContain('>Pembelian · <a href')
    expect(ledger.body).not.toContain(`Purchase ${invoice}`)
    expect(ledger.body).toMatch(/\d\d[.:]\d\d WIB/)
  })

  it('shows a top-up’s amount, fee, total, channel and expiry, and lists it with its link while it waits', async () => {
    const shop = await createReseller(app)
    const staff = await dashboardVisitor(app, shop.id, `topup-${++n}@toko.example`, 'staff')
    const code = `BRIVA${n}`
    await ctx.db
      .insertInto('payment_channels')
      .values({ code, name: `BRI Virtual Account ${n}`, type: 'va', fee_flat: 4_000 })
      .execute()
    await staff.get('/dashboard/topup')
    expect((await staff.get('/dashboard/topup')).body).not.toContain('id="pending"')
    const made = await staff.post('/dashboard/topup', { amount: '150.000', channel: code })
    expect(made.location).toMatch(/^\/dashboard\/transactions\/TOP/)
    const page = await staff.get(made.location!)
    const fact = (id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(page.body)?.[1]
    expect({
      channel: fact('topup-channel'),
      amount: fact('topup-amount'),
      fee: fact('topup-fee'),
      total: fact('topup-total'),
    }).toEqual({ channel: `BRI Virtual Account ${n}`, amount: 'Rp 150.000', fee: 'Rp 4.000', total: 'Rp 154.000' })
    expect(fact('topup-expiry')).toMatch(/ WIB$/)
    expect(page.body).toMatch(/id="pay-link" href="[^"]*\/sim\/pay\//)
    expect(page.body).toContain('id="status">menunggu<')

    const list = await staff.get('/dashboard/topup')
    const invoice = made.location!.split('/').pop()!
    expect(list.body).toContain('id="pending"')
    expect(list.body).toContain(`>${invoice}</a>`)
    expect(list.body).toMatch(/class="pay-link" href="[^"]*\/sim\/pay\//)
    expect(list.body).toContain('Rp 154.000')
  })
})
