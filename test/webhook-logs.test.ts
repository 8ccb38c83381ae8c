import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase, onPostgres } from './database.js'
import { until } from './eventually.js'
import { startReceiver } from './receiver.js'
import { adminCall, startServerProcess, type ServerProcess } from './server-process.js'

// On PostgreSQL a migrated clone starts faster than an embedded database migrating from scratch.
const database = onPostgres ? await cloneTestDatabase() : undefined

// A secret never appears in a log: the real service as its own process, logging
// everything it can (requests and workers alike, on its stdout), through a secret's whole life.
describe('webhook secrets and the log', () => {
  const children: ServerProcess[] = []
  afterAll(async () => {
    children.forEach((c) => c.child.kill('SIGKILL'))
    await Promise.all(children.map((c) => c.exited))
    await database?.close()
  })

  // A server process under tsx: on a busy machine its start alone can take most of a minute.
  it('no whsec_ secret in any log line: generated, webhooks switched on, a test send, a failed delivery', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const server = await startServerProcess({ LOG_LEVEL: 'trace', ...(database && { DATABASE_URL: database.url! }) })
    children.push(server)
    const reseller = await adminCall(server.base, 'POST', '/resellers', { name: 'Log Shop' })
    await adminCall(server.base, 'POST', `/resellers/${reseller.id}/balance`, { amount: 100_000, reason: 'log test' })
    const item = await adminCall(server.base, 'POST', '/items', {
      product_name: 'Log',
      name: 'log manual',
      price: 1_000,
      order_process: 'manual',
      unlimited_stock: true,
    })
    const call = async (method: string, url: string, body?: object) => {
      const res = await fetch(`${server.base}/api/v1${url}`, {
        method,
        headers: { 'x-apikey': reseller.api_key, ...(body && { 'content-type': 'application/json' }) },
        body: body && JSON.stringify(body),
      })
      return { status: res.status, json: (await res.json()) as { data: any } }
    }

    const secret: string = (await call('POST', '/webhook/secret')).json.data.webhook_secret
    expect(secret).toMatch(/^whsec_/)
    expect((await call('PUT', '/webhook', { callback_url: receiver.url, webhook_enabled: true })).status).toBe(200)
    expect((await call('POST', '/webhook/test')).json.data).toMatchObject({ delivered: false, status_code: 500 })
    expect((await call('POST', '/trx', { ref_id: 'log-1', carts: [{ item_id: item.id, quantity: 1 }] })).status).toBe(200)
    // The worker's first attempt at order.paid, failed and recorded.
    await receiver.waitFor(2)
    const failedOnce = async () => {
      const listed: { event: string; attempt_count: number }[] = (await call('GET', '/webhook/deliveries')).json.data
      return listed.some((d) => d.event === 'order.paid' && d.attempt_count > 0)
    }
    await until('the failed attempt recorded', failedOnce, { timeoutMs: 30_000 })

    const log = server.output()
    // The log is there, down to trace: the requests of every step.
    for (const url of ['/api/v1/webhook/secret', '/api/v1/webhook/test', '/api/v1/trx']) expect(log).toContain(url)
    expect(log).not.toContain('whsec_')
    expect(log).not.toContain(secret.slice('whsec_'.length))
  }, 180_000)
})
