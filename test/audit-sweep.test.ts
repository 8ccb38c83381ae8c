import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { latestAuditId } from './team.js'
import { sha256Hex } from '../src/vault.js'
import { ADMIN_TOKEN, createTestApp } from './app.js'
import { WRITE_CALLS } from './admin-calls.js'
import { SECRETS, sweepGateway, sweepWorld } from './sweep-world.js'
import { adminOperations, fingerprint } from './admin-routes.js'
import { startUpstreams } from './upstreams.js'

// docs/design.md §11d: every operator write appends to the audit log, in its own transaction, as
// the actor that made it; and nothing secret ever reaches the log, whatever the write touched.
const up = await startUpstreams()
afterAll(() => up.close())
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' }, {}, { paymentGateway: sweepGateway })
const world = await sweepWorld(app, ctx, up)
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
const writes = adminOperations(app).filter((op) => op.method !== 'GET')
// Tables an operator write may change without a log row of their own, and why that loses nothing.
const UNAUDITED: Record<string, string> = {
  audit_log: 'the log itself',
  outbox_events: 'the events of an order change, whose order and line rows are logged',
  supplier_products: "a copy of the supplier's list; what a sync changed is logged as supplier_changes and supplier_syncs rows",
  reseller_sessions: "the removed dashboard user's sign-ins, ended with the logged removal",
  item_level_prices:
    'recomputed from the logged item, product and level rule rows (thousands per rule change); a price set or cleared by hand is logged',
  license_fingerprints: 'the digest of every voucher ever stocked (a secret itself); the licenses rows are logged',
  account_order_settles: "a counter of the account's order status changes (its order list's version); the orders rows are logged",
  webhook_delivery_totals: "a count of the account's webhook deliveries, kept by triggers on webhook_deliveries",
}
const auditedTables = async () =>
  (
    await sql<{ table: string }>`SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE t.tgname = c.relname || '_audit'`.execute(ctx.db)
  ).rows.map((r) => r.table)
const lastId = () => latestAuditId(ctx)

describe('every operator write route', () => {
  it('has a call in the sweep (test/admin-calls.ts WRITE_CALLS), and only routes that exist do', () => {
    const swept = WRITE_CALLS.map(([id]) => id)
    expect(writes.length).toBeGreaterThan(25)
    expect(
      writes.map((op) => op.operationId).filter((id) => !swept.includes(id)),
      'write routes without a call in WRITE_CALLS',
    ).toEqual([])
    expect(swept.filter((id) => !writes.some((op) => op.operationId === id))).toEqual([])
  })

  it('appends audit rows named by its operation id, as its actor (the admin token, or a person for their own tokens), with the request id it answered under', async () => {
    const silent: string[] = []
    const unlogged: string[] = []
    const audited = await auditedTables()
    expect(audited).toEqual(expect.arrayContaining(['accounts', 'items', 'order_lines', 'operators']))
    for (const [operationId, callOf] of WRITE_CALLS) {
      const call = await callOf(world, ctx, up)
      const before = await lastId()
      // Changes of updated_at alone are no change to log (modules/audit/audit.sql): they are left out here too.
      const tablesBefore = await fingerprint(ctx, ['updated_at'])
      const as = call.as === 'self' ? world.self : undefined
      const res = await app.inject({
        method: call.method,
        url: `/api/admin/v1${call.url}`,
        headers: { ...(as?.headers ?? headers), ...call.headers },
        payload: call.payload,
      })
      expect(res.statusCode, `${operationId} ${call.method} ${call.url}: ${res.body}`).toBe(200)
      const tablesAfter = await fingerprint(ctx, ['updated_at'])
      const rows = await ctx.db.selectFrom('audit_log').selectAll().where('id', '>', before).orderBy('id').execute()
      const logged = new Set(rows.map((r) => r.target_type))
      for (const table of Object.keys(tablesAfter)) {
        if (tablesAfter[table] === tablesBefore[table] || table in UNAUDITED) continue
        // An audited table whose rows changed with no row of the log: written past the acting connection.
        if (!audited.includes(table)) unlogged.push(`${operationId}: ${table} (no audit trigger)`)
        else if (!logged.has(table)) unlogged.push(`${operationId}: ${table} (changed, not logged)`)
      }
      if (rows.length === 0) silent.push(operationId)
      for (const row of rows) {
        expect(row, operationId).toMatchObject({
          action: operationId,
          actor: as?.email ?? 'admin token',
          actor_id: as?.id ?? null,
          role: 'owner',
        })
        expect(row.request_id, operationId).toBe(res.headers['x-request-id'])
      }
    }
    expect(silent, 'write routes that changed no audited table').toEqual([])
    expect(unlogged, 'tables a write changed without logging it (an audit trigger in a new migration, or why not in UNAUDITED)').toEqual([])
  })

  it('logs no secret: no license, API key, op_ token, provider key, webhook secret, invite token, password, second factor or stored digest of one', async () => {
    const changes = (await ctx.db.selectFrom('audit_log').select(['id', 'target_type', 'changes']).execute()).map((r) => ({
      where: `${r.target_type} #${r.id}`,
      text: JSON.stringify(r.changes),
    }))
    expect(changes.length).toBeGreaterThan(WRITE_CALLS.length)
    const stored = await ctx.db.selectFrom('licenses').select(['content_enc', 'fingerprint']).execute()
    const keys = await ctx.db.selectFrom('api_keys').select('key_hash').execute()
    const people = await ctx.db.selectFrom('reseller_users').select(['password_hash', 'invite_hash']).execute()
    const providers = await ctx.db.selectFrom('providers').select('api_key_enc').execute()
    const lines = await ctx.db.selectFrom('order_lines').select('delivery_enc').execute()
    const webhook = await ctx.db.selectFrom('webhook_settings').select('secret_enc').execute()
    const alerting = await ctx.db.selectFrom('alert_channels').select('webhook_secret_enc').execute()
    const team = await ctx.db
      .selectFrom('operators')
      .select(['password_hash', 'invite_hash', 'totp_secret_enc', 'recovery_code_hashes'])
      .execute()
    const tokens = await ctx.db.selectFrom('operator_tokens').select('token_hash').execute()
    const rotated = (await ctx.db.selectFrom('audit_log').select('id').where('action', '=', 'adminRotateApiKey').execute()).length
    expect(rotated).toBeGreaterThan(0)
    const secrets = [
      ...Object.values(SECRETS),
      ...world.made,
      ...world.made.map(sha256Hex),
      ...stored.flatMap((l) => [l.content_enc, l.fingerprint]),
      ...keys.map((k) => k.key_hash),
      ...people.flatMap((p) => [p.password_hash, p.invite_hash]),
      ...providers.map((p) => p.api_key_enc),
      ...lines.map((l) => l.delivery_enc),
      ...webhook.map((s) => s.secret_enc),
      ...alerting.flatMap((c) => (c.webhook_secret_enc ? [c.webhook_secret_enc, ctx.vault.decrypt(c.webhook_secret_enc)] : [])),
      ...team.flatMap((o) => [o.password_hash, o.invite_hash, o.totp_secret_enc, ...o.recovery_code_hashes]),
      ...tokens.map((t) => t.token_hash),
      'sweep-recovery-hash',
    ].filter((s): s is string => typeof s === 'string' && s.length > 0)
    expect(secrets.length).toBeGreaterThan(15)
    for (const secret of secrets) {
      const found = changes.find((c) => c.text.includes(secret))
      expect(found?.where, `a secret (${secret.slice(0, 12)}…) in the audit log`).toBeUndefined()
    }
    // …while the writes that set them are logged, with the value redacted.
    const redacted = (await ctx.db.selectFrom('audit_log').selectAll().execute()).filter((r) =>
      JSON.stringify(r.changes).includes('[redacted]'),
    )
    for (const [action, table] of [
      ['adminAddLicenses', 'licenses'],
      ['adminSendManualLine', 'order_lines'],
      ['adminCreateProvider', 'providers'],
      ['adminUpdateProvider', 'providers'],
      ['adminRotateApiKey', 'api_keys'],
      ['adminRemoveDashboardUser', 'reseller_users'],
      ['adminResetDashboardUserSecondFactor', 'reseller_users'],
      ['adminResetOperatorSecondFactor', 'operators'],
      ['adminInviteOperator', 'operators'],
      ['adminCreateMyToken', 'operator_tokens'],
      ['adminPutAlertChannels', 'alert_channels'],
    ])
      expect(
        redacted.some((r) => r.action === action && r.target_type === table),
        `${action} logs its ${table} row with the secret redacted`,
      ).toBe(true)
  })
})
