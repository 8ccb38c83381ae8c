import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { operatorWithToken, latestAuditId } from '../../../test/team.js'

// docs/design.md §11d: every operator write appends, in its own transaction, who did what to which row.
const { app, ctx } = await createTestApp()
const asAdminToken = { authorization: `Bearer ${ADMIN_TOKEN}` }
const auditOf = (action: string) => ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()
const lastAuditId = () => latestAuditId(ctx)

describe('the audit log', () => {
  it('logs each row an operator write changes, with who, role, address and the fields before → after', async () => {
    const r = await createReseller(app, { balance: 10_000 })
    const before = await lastAuditId()
    const res = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/resellers/${r.id}/balance`,
      headers: asAdminToken,
      payload: { amount: 2_500, reason: 'goodwill' },
    })
    expect(res.statusCode).toBe(200)
    const rows = (await auditOf('adminAdjustBalance')).filter((row) => row.id > before)
    const account = rows.find((row) => row.target_type === 'accounts')
    expect(account).toMatchObject({ actor: 'admin token', actor_id: null, role: 'owner', change: 'update', target_id: String(r.id) })
    expect(account!.client_ip).toBe('127.0.0.1')
    expect(account!.changes.balance).toEqual({ before: 10_000, after: 12_500 })
    expect(account!.changes).not.toHaveProperty('updated_at')
    const entry = rows.find((row) => row.target_type === 'ledger_entries')
    expect(entry).toMatchObject({ change: 'insert' })
    expect(entry!.changes.amount).toEqual({ before: null, after: 2_500 })
    // One request, one request id across its rows.
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(1)
  })

  it('redacts secrets: a new API key is logged as set, never its hash', async () => {
    const r = await createReseller(app)
    await admin(app, 'POST', `/resellers/${r.id}/api-keys`)
    const [key] = (await auditOf('adminRotateApiKey')).filter((row) => row.target_type === 'api_keys' && row.change === 'insert').slice(-1)
    expect(key.changes.key_hash).toEqual({ before: null, after: '[redacted]' })
    expect(JSON.stringify(key.changes)).not.toMatch(/[0-9a-f]{64}/)
  })

  it("logs nothing for a reseller's purchase or an operator's read", async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const item = await createAutoItem(app, 2)
    const before = await lastAuditId()
    expect((await buy(app, r, 'audit-quiet-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: `/api/admin/v1/resellers/${r.id}`, headers: asAdminToken })).statusCode).toBe(200)
    expect(await lastAuditId()).toBe(before)
  })

  it('names the person behind an op_ token', async () => {
    const person = await operatorWithToken(ctx, 'admin')
    const item = await createAutoItem(app, 0)
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/items/${item.id}`,
      headers: person.headers,
      payload: { price: 12_345 },
    })
    expect(res.statusCode).toBe(200)
    const [row] = (await auditOf('adminUpdateItem')).filter((r) => r.target_id === String(item.id)).slice(-1)
    expect(row).toMatchObject({ actor: person.email, actor_id: person.id, role: 'admin', target_type: 'items' })
    expect(row.changes.price).toEqual({ before: 10_000, after: 12_345 })
  })

  it('is append-only: an UPDATE, DELETE or TRUNCATE is refused', async () => {
    await createReseller(app)
    for (const statement of [sql`UPDATE audit_log SET actor = 'someone else'`, sql`DELETE FROM audit_log`, sql`TRUNCATE audit_log`]) {
      await expect(statement.execute(ctx.db)).rejects.toThrow(/append-only/)
    }
    expect(await lastAuditId()).toBeGreaterThan(0)
  })
})

describe('roles', () => {
  it('refuses a role its route with 403 FORBIDDEN_FOR_ROLE and changes nothing', async () => {
    const viewer = await operatorWithToken(ctx, 'viewer')
    const item = await createAutoItem(app, 0)
    const before = await lastAuditId()
    const read = await app.inject({ method: 'GET', url: `/api/admin/v1/items/${item.id}`, headers: viewer.headers })
    expect(read.statusCode).toBe(200)
    const write = await app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/items/${item.id}`,
      headers: viewer.headers,
      payload: { price: 1 },
    })
    expect(write.statusCode).toBe(403)
    expect(write.json()).toMatchObject({ message: 'FORBIDDEN_FOR_ROLE', data: { role: 'viewer', allowed: ['admin', 'owner'] } })
    expect((await admin(app, 'GET', `/items/${item.id}`)).price).toBe(10_000)
    expect(await lastAuditId()).toBe(before)
  })

  it("takes an operator's role as it is now, and refuses a removed operator's token at once", async () => {
    const person = await operatorWithToken(ctx, 'support')
    const url = '/api/admin/v1/reports/margin'
    expect((await app.inject({ method: 'GET', url, headers: person.headers })).statusCode).toBe(403)
    await ctx.db.updateTable('operators').set({ role: 'finance' }).where('id', '=', person.id).execute()
    expect((await app.inject({ method: 'GET', url, headers: person.headers })).statusCode).toBe(200)
    await ctx.db.updateTable('operators').set({ status: 'removed' }).where('id', '=', person.id).execute()
    const gone = await app.inject({ method: 'GET', url, headers: person.headers })
    expect(gone.statusCode).toBe(401)
    expect(gone.json().message).toBe('UNAUTHORIZED')
  })
})
