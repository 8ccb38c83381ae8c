import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { signedInOperator } from '../../../test/console-team.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { openComplaint } from '../complaints/index.js'

// The console's complaints pages (docs/design.md §14): the queue against the SLA, a complaint's thread and its steps.
const { app, ctx } = await createTestApp()
const operator = await signedIn(app)
const manual = await createItem(app, { order_process: 'manual', stock: 20, price: 15_000 })

async function complained(r: Reseller, ref: string, itemId = manual.id) {
  const res = await buy(app, r, ref, [{ item_id: itemId, quantity: 1, note: 'buyer@example.com' }])
  expect(res.statusCode, res.body).toBe(200)
  const order = res.json().data.id
  const line = (await admin(app, 'GET', `/transactions/${order}`)).items[0]
  if (line.order_process === 'manual') await admin(app, 'POST', `/transactions/${order}/items/${line.id}/send`, { product_license: 'C-1' })
  const body = { order_item_id: line.id, reason: 'invalid_code' as const, message: 'the code is refused' }
  return (await openComplaint(ctx.db, { now: new Date(), days: 7 }, r.id, ref, body, { name: 'Toko Console' })).id as number
}

describe('console: complaints', () => {
  it('lists the queue oldest first with the overdue marked, and a complaint with its thread and forms', async () => {
    const r = await createReseller(app, { name: 'Toko Console', balance: 100_000 })
    const old = await complained(r, 'cc-old')
    const fresh = await complained(r, 'cc-fresh')
    await sql`UPDATE complaint_messages SET created_at = now() - interval '2 days' WHERE complaint_id = ${old}`.execute(ctx.db)
    await sql`UPDATE complaints SET created_at = now() - interval '2 days' WHERE id = ${old}`.execute(ctx.db)
    const queue = await operator.get(`/console/complaints?account_id=${r.id}`)
    expect(queue.status).toBe(200)
    expect(queue.body).toContain('href="/console/complaints"')
    expect(queue.body.indexOf(`data-complaint="${old}"`)).toBeLessThan(queue.body.indexOf(`data-complaint="${fresh}"`))
    expect(queue.body).toContain(`data-complaint="${old}" class="overdue"`)
    expect(queue.body).toContain(`data-complaint="${fresh}" class="on-time"`)
    const page = await operator.get(`/console/complaints/${fresh}`)
    expect(page.body).toContain('the code is refused')
    for (const form of ['id="reply"', 'id="resend-manual"', 'id="refund"', 'id="reject"']) expect(page.body).toContain(form)
    expect(page.body).toContain('return confirm(&quot;Refund')
    expect(page.body).toContain('return confirm(&quot;Reject')
    // A manual line has nothing upstream to ask.
    expect(page.body).not.toContain('id="recheck"')
  })

  it('replies, refunds once and rejects through the forms, as the signed-in operator', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const c = await complained(r, 'cc-steps')
    const replied = await operator.post(`/console/complaints/${c}/reply`, { message: 'looking into it' })
    expect(replied.location).toBe(`/console/complaints/${c}?done=replied`)
    expect((await operator.get(replied.location!)).body).toContain('Reply sent')
    expect((await admin(app, 'GET', `/complaints/${c}`)).status).toBe('answered')
    const refunded = await operator.post(`/console/complaints/${c}/refund`, {})
    expect(refunded.location).toBe(`/console/complaints/${c}?done=refunded`)
    const again = await operator.post(`/console/complaints/${c}/refund`, {})
    expect(again.status).toBe(422)
    expect(await balanceOf(app, r)).toBe(100_000)
    const done = await admin(app, 'GET', `/complaints/${c}`)
    expect(done).toMatchObject({ status: 'closed', resolution: 'refunded', refunded_amount: 15_000 })
    expect(done.messages.map((m: { author_name: string }) => m.author_name)).toEqual(['Toko Console', 'admin token', 'admin token'])
    const other = await complained(r, 'cc-reject')
    expect((await operator.post(`/console/complaints/${other}/reject`, { reason: '' })).status).toBe(422)
    expect((await operator.post(`/console/complaints/${other}/reject`, { reason: 'used before' })).location).toBe(
      `/console/complaints/${other}?done=rejected`,
    )
    await assertInvariants(ctx.db)
  })

  it('resends an auto line from stock and a typed one; support sees no refund form and is refused it', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const auto = await createAutoItem(app, 2, { price: 5_000 })
    const c = await complained(r, 'cc-auto', auto.id)
    const before = (await get(app, '/trx/cc-auto', r)).json().data.items[0].product_license
    const resent = await operator.post(`/console/complaints/${c}/resend`, { mode: 'auto' })
    expect(resent.location).toBe(`/console/complaints/${c}?done=resent`)
    const after = (await get(app, '/trx/cc-auto', r)).json().data.items[0].product_license
    expect(after).not.toBe(before)
    const { v: support } = await signedInOperator(app, ctx, 'support')
    const next = await complained(r, 'cc-support')
    const page = await support.get(`/console/complaints/${next}`)
    expect(page.body).toContain('id="reply"')
    expect(page.body).not.toContain('id="refund"')
    expect((await support.post(`/console/complaints/${next}/refund`, {})).status).toBe(403)
    expect((await support.post(`/console/complaints/${next}/resend`, { mode: 'manual', product_license: '' })).status).toBe(422)
    const typedResend = await support.post(`/console/complaints/${next}/resend`, {
      mode: 'manual',
      product_license: 'NEW-CODE',
      note: 'fresh',
    })
    expect(typedResend.location).toBe(`/console/complaints/${next}?done=resent`)
    expect((await get(app, '/trx/cc-support', r)).json().data.items[0].product_license).toBe('NEW-CODE')
    await assertInvariants(ctx.db)
  })
})
