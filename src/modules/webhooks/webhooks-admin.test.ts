import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createReseller, get } from '../../../test/factory.js'
import { COMMANDS, parseArgs } from '../../cli/commands.js'

// The operator's side of webhooks added for the console: settings changed, every account's failing deliveries, the overview's count.
const { app, ctx } = await createTestApp()
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
const call = (method: 'GET' | 'PUT', url: string, payload?: object) => app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })

async function deliveries(accountId: number, statuses: ('pending' | 'retrying' | 'delivered' | 'failed')[]) {
  const rows = statuses.map((status, i) => ({
    account_id: accountId,
    event: 'order.completed',
    webhook_id: `evt_test_${accountId}_${i}_${Math.random().toString(36).slice(2)}`,
    status,
    failures: status === 'failed' ? 10 : status === 'retrying' ? 1 : 0,
    next_attempt_at: status === 'retrying' || status === 'pending' ? new Date(Date.now() + 3_600_000) : null,
    attempts: JSON.stringify(
      status === 'pending' ? [] : [{ attempted_at: new Date().toISOString(), status_code: 502, duration_ms: 5, error: 'HTTP 502' }],
    ),
  }))
  return ctx.db.insertInto('webhook_deliveries').values(rows).returning('id').execute()
}

describe('operator API: webhook settings', () => {
  it("changes an account's URL and switch under the reseller's own rules", async () => {
    const r = await createReseller(app)
    const set = await call('PUT', `/resellers/${r.id}/webhook`, { callback_url: 'https://shop.example/hooks' })
    expect(set.json()).toEqual({
      message: 'OK',
      data: { callback_url: 'https://shop.example/hooks', webhook_enabled: false, has_secret: false, secret_created_at: null },
    })
    expect((await get(app, '/webhook', r)).json().data.callback_url).toBe('https://shop.example/hooks')
    // Enabling still needs the secret only the reseller can generate; a plain-http address is refused.
    const noSecret = await call('PUT', `/resellers/${r.id}/webhook`, { webhook_enabled: true })
    expect([noSecret.statusCode, Object.keys(noSecret.json().errors)]).toEqual([422, ['webhook_enabled']])
    const plain = await call('PUT', `/resellers/${r.id}/webhook`, { callback_url: 'http://shop.example/hooks' })
    expect([plain.statusCode, Object.keys(plain.json().errors)]).toEqual([422, ['callback_url']])
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    expect((await call('PUT', `/resellers/${r.id}/webhook`, { webhook_enabled: true })).json().data).toMatchObject({
      webhook_enabled: true,
      has_secret: true,
    })
    expect((await call('PUT', `/resellers/${r.id}/webhook`, { callback_url: null, webhook_enabled: false })).json().data).toMatchObject({
      callback_url: null,
      webhook_enabled: false,
    })
    // The CLI's command (its own --url names the service, so the callback is --callback-url).
    const { name, args, flags } = parseArgs([
      'webhooks:update',
      String(r.id),
      '--callback-url',
      'https://shop.example/cli',
      '--enabled',
      'false',
    ])
    const body = COMMANDS[name].body!(flags, args)
    expect(body).toEqual({ callback_url: 'https://shop.example/cli', webhook_enabled: false })
    expect((await call('PUT', COMMANDS[name].path(args), body)).json().data.callback_url).toBe('https://shop.example/cli')
    expect(COMMANDS['webhooks:update'].body!(parseArgs(['webhooks:update', '1', '--callback-url', 'none']).flags, ['1'])).toEqual({
      callback_url: null,
    })
    const missing = await call('PUT', '/resellers/999999/webhook', { webhook_enabled: false })
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'ACCOUNT_NOT_FOUND' }])
  })
})

describe('failing deliveries over every account', () => {
  it('counts failed and retrying deliveries of all accounts on the overview, and lists them', { timeout: 120_000 }, async () => {
    // More accounts than the overview's table shows: its count still takes them all.
    const accounts = []
    for (let i = 0; i < 52; i++) accounts.push(await createReseller(app, { name: `Failing ${i}` }))
    for (const [i, a] of accounts.entries())
      await deliveries(a.id, i === 0 ? ['failed', 'retrying', 'retrying', 'delivered', 'pending'] : ['failed'])

    const overview = await admin(app, 'GET', '/overview')
    expect(overview.queues.webhooks_failing).toBe(54)
    expect(overview.webhooks_failing).toHaveLength(50)
    expect(overview.webhooks_failing[0]).toEqual({ account_id: accounts[0].id, name: 'Failing 0', failing: 3 })

    const page = (await call('GET', '/webhook-deliveries?per_page=50')).json()
    expect(page.meta).toEqual({ page: 1, per_page: 50, total: 54, last_page: 2 })
    const rest = (await call('GET', '/webhook-deliveries?per_page=50&page=2')).json()
    const statuses = [...page.data, ...rest.data].map((d: any) => d.status)
    expect([statuses.length, new Set(statuses)]).toEqual([54, new Set(['failed', 'retrying'])])
    expect(page.data[0]).toMatchObject({ account_id: accounts[51].id, account_name: 'Failing 51', attempt_count: 1 })
    const ofOne = (await call('GET', `/webhook-deliveries?account_id=${accounts[0].id}&status=retrying`)).json()
    expect(ofOne.data.map((d: any) => [d.account_id, d.status])).toEqual([
      [accounts[0].id, 'retrying'],
      [accounts[0].id, 'retrying'],
    ])
    const bad = await call('GET', '/webhook-deliveries?status=lost')
    expect([bad.statusCode, Object.keys(bad.json().errors)]).toEqual([422, ['status']])
  })
})
