import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// The console's pages over inject: categories and products, a reseller's webhook settings, and every list's next page.
const { app, ctx } = await createTestApp()
const operator = await signedIn(app)
const rowsOf = (html: string, table: string) => {
  const body = html.split(`id="${table}"`)[1]?.split('</table>')[0] ?? ''
  return body.split('<tr>').length - 2
}
const nextLink = (html: string) => /href="([^"]+)" id="next-page"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
const idFrom = (location: string | undefined, kind: string) => Number(new RegExp(`/console/${kind}/(\\d+)`).exec(location ?? '')?.[1])

describe('console: categories and products', () => {
  it('creates a category and a product, then an item under them; filters items by category; edits and deletes', async () => {
    await operator.get('/console/categories')
    const madeCategory = await operator.post('/console/categories', { name: 'Voucher Game', icon: 'https://cdn.example/vg.png' })
    const categoryId = idFrom(madeCategory.location, 'categories')
    expect(categoryId).toBeGreaterThan(0)
    const categoryPage = await operator.get(`/console/categories/${categoryId}`)
    expect(categoryPage.body).toContain('Voucher Game')

    const madeProduct = await operator.post('/console/products', { name: 'Steam Wallet', category_id: String(categoryId), image: '' })
    const productId = idFrom(madeProduct.location, 'products')
    expect(await admin(app, 'GET', `/products/${productId}`)).toMatchObject({ category_id: categoryId, image: null })

    // The product's page carries the new-item form with its names: the item is the product's.
    const productPage = await operator.get(`/console/products/${productId}`)
    expect(productPage.body).toContain('id="create-item"')
    const madeItem = await operator.post('/console/items', {
      category: 'Voucher Game',
      product_name: 'Steam Wallet',
      name: 'IDR 60.000',
      price: '65000',
      order_process: 'manual',
      stock: '3',
    })
    const itemId = idFrom(madeItem.location, 'items')
    expect(await admin(app, 'GET', `/items/${itemId}`)).toMatchObject({ product_id: productId, category: 'Voucher Game' })
    expect((await operator.get(`/console/products/${productId}`)).body).toContain('IDR 60.000')

    const elsewhere = await createItem(app, { category: 'Pulsa', name: 'Telkomsel 10k' })
    const filtered = await operator.get(`/console/items?category=${categoryId}`)
    expect(filtered.body).toContain('IDR 60.000')
    expect(filtered.body).not.toContain(elsewhere.name)
    expect(filtered.body).toContain(`<option value="${categoryId}" selected>Voucher Game</option>`)
    expect((await operator.get('/console/items')).body).toContain(elsewhere.name)

    await operator.get(`/console/categories/${categoryId}`)
    expect((await operator.post(`/console/categories/${categoryId}`, { name: 'Game Vouchers', icon: '' })).status).toBe(303)
    expect(await admin(app, 'GET', `/categories/${categoryId}`)).toMatchObject({ name: 'Game Vouchers', icon: null, item_count: 1 })
    const pulsa = (await admin(app, 'GET', '/categories?search=Pulsa'))[0]
    await operator.get(`/console/products/${productId}`)
    await operator.post(`/console/products/${productId}`, {
      name: 'Steam',
      category_id: String(pulsa.id),
      image: 'https://cdn.example/s.png',
    })
    expect(await admin(app, 'GET', `/items/${itemId}`)).toMatchObject({ product_name: 'Steam', category: 'Pulsa' })

    // An empty category goes; one with products is refused with the reason.
    await operator.get(`/console/categories/${categoryId}`)
    expect((await operator.post(`/console/categories/${categoryId}/delete`, {})).location).toBe('/console/categories?done=deleted')
    await operator.get(`/console/categories/${pulsa.id}`)
    const refused = await operator.post(`/console/categories/${pulsa.id}/delete`, {})
    expect([refused.status, refused.body.includes('INVALID_STATE')]).toEqual([409, true])
  })
})

describe('console: a reseller', () => {
  it('edits its webhook settings through the operator service, and pages its mutations and deliveries', { timeout: 120_000 }, async () => {
    const shop = await createReseller(app, { name: 'Toko Webhook' })
    await operator.get(`/console/resellers/${shop.id}`)
    const saved = await operator.post(`/console/resellers/${shop.id}/webhook`, { callback_url: 'https://toko.example/hook' })
    expect(saved.location).toBe(`/console/resellers/${shop.id}?done=webhook#webhook`)
    expect(await admin(app, 'GET', `/resellers/${shop.id}/webhook`)).toMatchObject({
      callback_url: 'https://toko.example/hook',
      webhook_enabled: false,
    })
    const page = await operator.get(`/console/resellers/${shop.id}`)
    expect(page.body).toContain('value="https://toko.example/hook"')
    // The reseller's rules hold here too: no secret, no webhooks.
    const refused = await operator.post(`/console/resellers/${shop.id}/webhook`, {
      callback_url: 'https://toko.example/hook',
      webhook_enabled: 'on',
    })
    expect([refused.status, refused.body.includes('webhook_enabled')]).toEqual([422, true])

    for (let i = 1; i <= 55; i++) await admin(app, 'POST', `/resellers/${shop.id}/balance`, { amount: i, reason: `credit ${i}` })
    const first = await operator.get(`/console/resellers/${shop.id}/mutations`)
    expect(rowsOf(first.body, 'mutations')).toBe(50)
    expect(first.body).toContain('credit 55')
    const second = await operator.get(`/console/resellers/${shop.id}/mutations${nextLink(first.body)}`)
    expect(rowsOf(second.body, 'mutations')).toBe(5)
    expect(second.body).toContain('credit 1<')
    expect(nextLink(second.body)).toBeUndefined()

    const rows = Array.from({ length: 55 }, (_, i) => ({
      account_id: shop.id,
      event: 'order.completed',
      webhook_id: `evt_page_${i}`,
      status: i % 2 ? ('failed' as const) : ('retrying' as const),
      attempts: '[]',
    }))
    await ctx.db.insertInto('webhook_deliveries').values(rows).execute()
    const deliveries = await operator.get(`/console/resellers/${shop.id}/deliveries?status=failing`)
    expect(rowsOf(deliveries.body, 'deliveries')).toBe(50)
    const more = await operator.get(`/console/resellers/${shop.id}/deliveries${nextLink(deliveries.body)}`)
    expect(rowsOf(more.body, 'deliveries')).toBe(5)

    // The overview's queue links to every account's failing deliveries.
    const overview = await operator.get('/console')
    expect(overview.body).toMatch(
      /id="queue-webhooks" href="\/console\/webhook-deliveries\?status=failing"><small>[^<]+<\/small><b>55<\/b>/,
    )
    const store = await operator.get('/console/webhook-deliveries?status=failing')
    expect(rowsOf(store.body, 'deliveries')).toBe(50)
    expect(store.body).toContain('Toko Webhook')
    const [newest] = await ctx.db.selectFrom('webhook_deliveries').select('id').orderBy('id', 'desc').limit(1).execute()
    const retried = await operator.post(`/console/resellers/${shop.id}/deliveries/${newest.id}/retry`, { back: 'store' })
    expect(retried.location).toBe('/console/webhook-deliveries?done=redelivered')
    const row = await ctx.db.selectFrom('webhook_deliveries').select('status').where('id', '=', newest.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('pending')
  })
})

describe('console: next pages keep their filters', () => {
  it("orders of one reseller, top-ups; a channel's fees and range are edited", { timeout: 120_000 }, async () => {
    const shop = await createReseller(app, { balance: 1_000_000 })
    const other = await createReseller(app, { balance: 10_000 })
    const item = await createItem(app, { order_process: 'manual', unlimited_stock: true, price: 100 })
    for (let i = 0; i < 51; i++) expect((await buy(app, shop, `page-${i}`, [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await buy(app, other, 'other-1', [{ item_id: item.id, quantity: 1 }])
    const first = await operator.get(`/console/orders?account_id=${shop.id}`)
    expect(rowsOf(first.body, 'orders')).toBe(50)
    const next = nextLink(first.body)!
    expect(new URLSearchParams(next.slice(1)).get('account_id')).toBe(String(shop.id))
    const second = await operator.get(`/console/orders${next}`)
    expect(rowsOf(second.body, 'orders')).toBe(1)
    expect(second.body).toContain(`/console/resellers/${shop.id}"`)
    expect(second.body).not.toContain(`/console/resellers/${other.id}"`)

    await admin(app, 'POST', '/channels', { code: 'BRIVA', name: 'BRI VA', type: 'va', fee_flat: 4000 })
    for (let i = 0; i < 51; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/balance',
        headers: shop.headers,
        payload: { amount: 10_000, channel: 'BRIVA' },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    const topups = await operator.get('/console/topups?status=pending')
    expect(rowsOf(topups.body, 'topups')).toBe(50)
    const rest = await operator.get(`/console/topups${nextLink(topups.body)}`)
    expect(rowsOf(rest.body, 'topups')).toBe(1)
    expect(nextLink(rest.body)).toBeUndefined()

    await operator.get('/console/channels/BRIVA')
    const edited = await operator.post('/console/channels/BRIVA', {
      name: 'BRI Virtual Account',
      type: 'va',
      fee_flat: '3500',
      fee_percent: '0.5',
      min_amount: '20000',
      max_amount: '5000000',
    })
    expect(edited.location).toBe('/console/channels?done=channel')
    const channel = (await admin(app, 'GET', '/channels')).find((c: { code: string }) => c.code === 'BRIVA')
    expect(channel).toMatchObject({
      name: 'BRI Virtual Account',
      fee_flat: 3500,
      fee_percent: 0.5,
      min_amount: 20_000,
      max_amount: 5_000_000,
    })
    const inverted = await operator.post('/console/channels/BRIVA', { name: 'BRI VA', type: 'va', min_amount: '9000000' })
    expect([inverted.status, inverted.body.includes('max_amount')]).toEqual([422, true])
  })
})

describe('console: a reseller’s books', () => {
  it('shows every check of the audit, and the entries that break the chain once the books are tampered with', async () => {
    const shop = await createReseller(app, { name: 'Toko Buku', balance: 40_000 })
    await admin(app, 'POST', `/resellers/${shop.id}/balance`, { amount: 2_500, reason: 'bonus' })
    const reseller = await operator.get(`/console/resellers/${shop.id}`)
    expect(reseller.body).toContain(`href="/console/resellers/${shop.id}/audit" id="audit"`)
    const clean = await operator.get(`/console/resellers/${shop.id}/audit`)
    expect(clean.body).toContain('id="consistent">consistent<')
    expect(rowsOf(clean.body, 'checks')).toBe(8)
    expect(clean.body).not.toContain('id="breaks"')

    const [first] = (
      await ctx.db.selectFrom('ledger_entries').select('id').where('account_id', '=', shop.id).orderBy('id').limit(1).execute()
    ).map((e) => e.id)
    await ctx.db
      .updateTable('ledger_entries')
      .set((eb) => ({ balance_before: eb('balance_before', '+', 1), balance_after: eb('balance_after', '+', 1) }))
      .where('id', '=', first)
      .execute()
    const broken = await operator.get(`/console/resellers/${shop.id}/audit`)
    expect(broken.body).toContain('id="consistent">inconsistent<')
    // The first entry starts one above zero and the second one below where the first now ends; the balance holds.
    expect(rowsOf(broken.body, 'breaks')).toBe(2)
    expect((broken.body.match(/>fails</g) ?? []).length).toBe(1)
    expect((await operator.get('/console/resellers/999999/audit')).status).toBe(404)
  })
})
