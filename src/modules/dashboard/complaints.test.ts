import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { dashboardVisitor } from '../../../test/dashboard.js'
import { createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'

// docs/design.md §14: "The dashboard shows a line's complaint and its thread and lets owner and staff open one",
// over app.inject like the other dashboard tests.
const { app, ctx } = await createTestApp()
const shop = await createReseller(app, { name: 'Toko Komplain', balance: 1_000_000 })
const item = await createAutoItem(app, 20, { price: 10_000 })
const owner = await dashboardVisitor(app, shop.id, 'owner@komplain.example')
const staff = await dashboardVisitor(app, shop.id, 'staff@komplain.example', 'staff')
let n = 0

/** A fresh purchase of one line: its invoice and the line's id as the transaction page's open form names it. */
async function purchase() {
  const res = await buy(app, shop, `kmp-${++n}`, [{ item_id: item.id, quantity: 1 }])
  expect(res.statusCode, res.body).toBe(200)
  const invoice = res.json().data.invoice as string
  const page = await owner.get(`/dashboard/transactions/${invoice}`)
  const line = /name="order_item_id" value="(\d+)"/.exec(page.body)?.[1]
  expect(line, 'the page offers a complaint on the line').toBeDefined()
  return { invoice, line: line! }
}

/** An operator's step, as the console's actions record it (complaints.sql). */
const operatorStep = (id: number, action: string, body: string, status: string, resolution: string | null = null) =>
  sql`SELECT record_complaint_step(${id}::bigint, 'operator', 'op', ${action}::text, ${body}::text, ${status}::text, ${resolution}::text)`.execute(
    ctx.db,
  )

const openOn = (invoice: string, form: Record<string, string>) => owner.post(`/dashboard/transactions/${invoice}/complaints`, form)

describe('complaints in the dashboard', () => {
  it('opens a complaint from the transaction page, lists it open, and follows its thread to the end', async () => {
    const { invoice, line } = await purchase()
    const opened = await openOn(invoice, { order_item_id: line, reason: 'invalid_code', message: 'Kodenya <b>ditolak</b> Steam' })
    expect(opened.status, opened.body).toBe(303)
    const id = Number(/^\/dashboard\/complaints\/(\d+)\?done=opened$/.exec(opened.location!)?.[1])
    expect(id).toBeGreaterThan(0)

    const page = await owner.get(opened.location!)
    expect(page.status).toBe(200)
    expect(page.body).toContain('id="notice"')
    expect(page.body).toContain('Kode tidak valid')
    expect(page.body).toContain('Kodenya &lt;b&gt;ditolak&lt;/b&gt; Steam')
    expect(/id="complaint-\d+-status">terbuka</.test(page.body)).toBe(true)
    expect(page.body).toContain(`href="/dashboard/transactions/${invoice}#complaint-${id}"`)

    // The list: newest first, filtered by status.
    const list = await owner.get('/dashboard/complaints')
    expect(list.body).toMatch(new RegExp(`id="complaint-row-${id}">[\\s\\S]*?terbuka`))
    expect((await owner.get('/dashboard/complaints?status=open')).body).toContain(`complaint-row-${id}"`)
    expect((await owner.get('/dashboard/complaints?status=closed')).body).not.toContain(`complaint-row-${id}"`)

    // The transaction page shows the thread; the line takes no second complaint while this one is open.
    const detail = await owner.get(`/dashboard/transactions/${invoice}`)
    expect(detail.body).toContain(`id="complaint-${id}"`)
    expect(detail.body).not.toContain(`id="open-${line}-form"`)

    // The operator answers; staff replies from the transaction page: open again, authored by their email.
    await operatorStep(id, 'reply', 'Kami cek ke pemasok.', 'answered')
    expect((await staff.get(`/dashboard/complaints/${id}`)).body).toMatch(/id="complaint-\d+-status">dijawab</)
    await staff.get(`/dashboard/transactions/${invoice}`)
    const replied = await staff.post(`/dashboard/complaints/${id}/messages`, { message: 'Masih ditolak.', from: 'order' })
    expect(replied.location).toBe(`/dashboard/transactions/${invoice}?done=replied#complaint-${id}`)
    const thread = await staff.get(`/dashboard/complaints/${id}`)
    expect(thread.body).toMatch(/Kami cek ke pemasok\.[\s\S]*Masih ditolak\./)
    expect(thread.body).toMatch(/id="complaint-\d+-status">terbuka</)
    const authors = await ctx.db
      .selectFrom('complaint_messages')
      .select(['author', 'author_name'])
      .where('complaint_id', '=', id)
      .orderBy('id')
      .execute()
    expect(authors).toEqual([
      { author: 'reseller', author_name: 'owner@komplain.example' },
      { author: 'operator', author_name: 'op' },
      { author: 'reseller', author_name: 'staff@komplain.example' },
    ])

    // Closed by the operator: no reply form; a reply from a page left open says why, keeping the message.
    await owner.get(`/dashboard/complaints/${id}`)
    await operatorStep(id, 'reject', 'Kode sudah dipakai.', 'closed', 'rejected')
    const late = await owner.post(`/dashboard/complaints/${id}/messages`, { message: 'Tolong cek lagi', from: 'complaint' })
    expect(late.status).toBe(422)
    expect(late.body).toMatch(new RegExp(`id="reply-${id}-message-error">Komplain ini sudah ditutup`))
    expect(late.body).toMatch(/<textarea name="message"[^>]*>Tolong cek lagi<\/textarea>/)
    const closed = await owner.get(`/dashboard/complaints/${id}`)
    expect(closed.body).toContain('ditolak')
    expect(closed.body).not.toContain(`id="reply-${id}"`)
    // Closed: the line takes a new complaint again.
    expect((await owner.get(`/dashboard/transactions/${invoice}`)).body).toContain(`id="open-${line}-form"`)
  })

  it('says what is wrong next to the field, in the page’s language, keeping what was typed', async () => {
    const { invoice, line } = await purchase()
    const blank = await openOn(invoice, { order_item_id: line, reason: 'wrong_item', message: '   ' })
    expect(blank.status).toBe(422)
    expect(blank.body).toMatch(new RegExp(`id="open-${line}-message-error">Tulis pesan`))
    expect(blank.body).toMatch(/<option value="wrong_item" selected>Barang salah/)

    await owner.get(`/dashboard/transactions/${invoice}`)
    expect((await openOn(invoice, { order_item_id: line, reason: 'not_received', message: 'Belum masuk' })).status).toBe(303)
    // A second one from a page opened before the first: refused beside the form, the message kept.
    const again = await openOn(invoice, { order_item_id: line, reason: 'other', message: 'Pesan yang saya ketik' })
    expect(again.status).toBe(422)
    expect(again.body).toMatch(new RegExp(`id="open-${line}-line-error">Barang ini sudah punya komplain yang belum ditutup`))
    expect(again.body).toMatch(/<textarea name="message"[^>]*>Pesan yang saya ketik<\/textarea>/)
    await owner.get(`/dashboard/transactions/${invoice}?lang=en`)
    const english = await openOn(invoice, { order_item_id: line, reason: 'other', message: 'typed' })
    expect(english.body).toMatch(new RegExp(`id="open-${line}-line-error">This item has a complaint that is not closed yet`))
    await owner.get(`/dashboard/transactions/${invoice}?lang=id`)

    // Past COMPLAINT_DAYS: no form offered, and a form sent anyway says the window.
    const old = await purchase()
    await sql`UPDATE orders SET created_at = now() - interval '8 days' WHERE invoice = ${old.invoice}`.execute(ctx.db)
    expect((await owner.get(`/dashboard/transactions/${old.invoice}`)).body).not.toContain(`id="open-${old.line}-form"`)
    const late = await openOn(old.invoice, { order_item_id: old.line, reason: 'other', message: 'Terlambat' })
    expect(late.status).toBe(422)
    expect(late.body).toMatch(new RegExp(`id="open-${old.line}-line-error">Komplain diterima paling lambat 7 hari`))
    expect(await ctx.db.selectFrom('complaints').select('id').where('order_line_id', '=', Number(old.line)).execute()).toEqual([])
  })

  it('offers no complaint on a refunded line', async () => {
    const manual = await createItem(app, { order_process: 'manual', stock: 5, price: 5_000 })
    const res = await buy(app, shop, `kmp-${++n}`, [{ item_id: manual.id, quantity: 1 }])
    const invoice = res.json().data.invoice as string
    const [l] = await ctx.db
      .selectFrom('order_lines as l')
      .innerJoin('orders as o', 'o.id', 'l.order_id')
      .select('l.id')
      .where('o.invoice', '=', invoice)
      .execute()
    await sql`UPDATE order_lines SET status = 'refunded' WHERE id = ${l!.id}`.execute(ctx.db)
    expect((await owner.get(`/dashboard/transactions/${invoice}`)).body).not.toContain('name="order_item_id"')
    const refused = await openOn(invoice, { order_item_id: String(l!.id), reason: 'other', message: 'x' })
    expect(refused.body).toMatch(new RegExp(`id="open-${l!.id}-line-error">Barang ini berstatus refund`))
  })

  it('opens a sandbox order’s page as before, with no complaint offered', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: shop.headers,
      payload: { ref_id: 'kmp-sandbox', item_id: item.id, quantity: 1 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const page = await owner.get('/dashboard/transactions/kmp-sandbox')
    expect(page.status).toBe(200)
    expect(page.body).not.toContain('name="order_item_id"')
  })

  it('shows another account’s complaint as not found, and lets nothing be written to it', async () => {
    const { invoice, line } = await purchase()
    const opened = await openOn(invoice, { order_item_id: line, reason: 'other', message: 'Milik kami' })
    const id = opened.location!.split('/').pop()!.split('?')[0]!
    const other = await createReseller(app, { name: 'Toko Lain' })
    const intruder = await dashboardVisitor(app, other.id, 'owner@lain.example')
    const page = await intruder.get(`/dashboard/complaints/${id}`)
    expect(page.status).toBe(404)
    expect(page.body).toContain('Tidak ada komplain Anda dengan nomor ini')
    expect(page.body).not.toContain('Milik kami')
    await intruder.get('/dashboard')
    expect((await intruder.post(`/dashboard/complaints/${id}/messages`, { message: 'hai', from: 'complaint' })).status).toBe(404)
    expect(
      (await intruder.post(`/dashboard/transactions/${invoice}/complaints`, { order_item_id: line, reason: 'other', message: 'hai' }))
        .status,
    ).toBe(404)
    expect((await intruder.get('/dashboard/complaints')).body).not.toContain(`complaint-row-${id}"`)
    const messages = await ctx.db.selectFrom('complaint_messages').select('body').where('complaint_id', '=', Number(id)).execute()
    expect(messages).toEqual([{ body: 'Milik kami' }])
  })

  it('lists newest first, fifty a page, the status filter kept on the next page', async () => {
    const { invoice, line } = await purchase()
    // 60 closed complaints on one line (only an open one is one per line), as if answered over months.
    await sql`INSERT INTO complaints (account_id, order_id, order_line_id, reason, status, resolution, closed_at)
              SELECT ${shop.id}, l.order_id, l.id, 'other', 'closed', 'resolved', now()
                FROM order_lines l, generate_series(1, 60) WHERE l.id = ${Number(line)}`.execute(ctx.db)
    const rowIds = (body: string) => [...body.matchAll(/id="complaint-row-(\d+)"/g)].map((m) => Number(m[1]))
    const first = await owner.get('/dashboard/complaints?status=closed')
    const ids = rowIds(first.body)
    expect(ids).toHaveLength(50)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(first.body).toContain(invoice)
    const next = /id="next-page" href="([^"]+)"|href="([^"]+)" id="next-page"/.exec(first.body)
    const href = (next![1] ?? next![2]!).replaceAll('&amp;', '&')
    expect(href).toMatch(/^\/dashboard\/complaints\?status=closed&cursor=/)
    const second = rowIds((await owner.get(href)).body)
    expect(second.length).toBeGreaterThanOrEqual(10)
    expect(Math.max(...second)).toBeLessThan(Math.min(...ids))
  })
})
