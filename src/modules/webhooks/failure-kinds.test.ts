import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createAutoItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { startReceiver } from '../../../test/receiver.js'
import { connectionFailure } from './attempt-failure.js'
import type { Resolver } from './receiver-address.js'
import { createTransport, type Transport } from './transport.js'
import { createWebhookWorker } from './webhook-worker.js'

// docs/design.md §8: in production a failed send says only what kind of failure it was, never the
// resolver's or the socket's own text, so neither the test send nor the delivery log probes the network.
const TIMEOUT_MS = 300
const resolvingTo =
  (address: string): Resolver =>
  async () => [{ address, family: 4 }]
const notFound: Resolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}.`), { code: 'ENOTFOUND', hostname: `${hostname}.` })
}
const hanging: Resolver = () => new Promise(() => {})
// Nothing of the network may show: host names, addresses, ports, resolver or socket wording.
const LEAKS = /\bvm\b|10\.0\.0\.7|127\.0\.0\.1|non-public|getaddrinfo|ENOTFOUND|ECONNREFUSED|after \d+ ms/

/** An app with APP_ENV=production sending through `transport`, and a reseller with a secret and `url` stored. */
async function productionApp(transport: Transport, url = 'https://vm/hook', webhooksOn = false) {
  const testApp = await createTestApp({}, { appEnv: 'production' }, { webhookTransport: transport })
  const { app, ctx } = testApp
  const r = await createReseller(app, { balance: 1_000_000 })
  await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
  // Set in the table: the production URL rule would refuse the loopback receivers some tests need.
  await ctx.db
    .updateTable('webhook_settings')
    .set({ callback_url: url, webhook_enabled: webhooksOn })
    .where('account_id', '=', r.id)
    .execute()
  return { ...testApp, r }
}

const testSend = async (app: Awaited<ReturnType<typeof productionApp>>['app'], r: Reseller) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })
  expect(res.statusCode).toBe(200)
  expect(res.body).not.toMatch(LEAKS)
  return res.json().data
}

async function closedPort() {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('in production a test send says only the kind of failure', () => {
  it('a host name that resolves to a private address: "address not allowed"', async () => {
    const { app, r } = await productionApp(createTransport({ production: true, timeoutMs: TIMEOUT_MS, resolve: resolvingTo('10.0.0.7') }))
    expect(await testSend(app, r)).toMatchObject({ delivered: false, status_code: null, error: 'address not allowed' })
    const [delivery] = (await get(app, '/webhook/deliveries', r)).json().data
    expect(delivery.attempts).toEqual([expect.objectContaining({ error: 'address not allowed' })])
  })

  it('a host name that does not resolve: "could not connect"', async () => {
    const { app, r } = await productionApp(createTransport({ production: true, timeoutMs: TIMEOUT_MS, resolve: notFound }))
    expect(await testSend(app, r)).toMatchObject({ delivered: false, error: 'could not connect' })
  })

  it('no answer in time: "timeout"', async () => {
    const { app, r } = await productionApp(createTransport({ production: true, timeoutMs: TIMEOUT_MS, resolve: hanging }))
    expect(await testSend(app, r)).toMatchObject({ delivered: false, error: 'timeout' })
  })

  it('a closed port: "could not connect"; a receiver answering 503: "HTTP 503"; a slow one: "timeout"', async () => {
    // The production app decides what is said; an unguarded transport lets these reach local sockets.
    const { app, ctx, r } = await productionApp(createTransport({ production: false, timeoutMs: TIMEOUT_MS }))
    const setUrl = (url: string) =>
      ctx.db.updateTable('webhook_settings').set({ callback_url: url }).where('account_id', '=', r.id).execute()
    await setUrl(`http://127.0.0.1:${await closedPort()}/hook`)
    expect(await testSend(app, r)).toMatchObject({ delivered: false, status_code: null, error: 'could not connect' })
    const receiver = await startReceiver(() => ({ status: 503 }))
    await setUrl(receiver.url)
    expect(await testSend(app, r)).toMatchObject({ delivered: false, status_code: 503, error: 'HTTP 503' })
    receiver.answerWith(() => ({ status: 200, delayMs: TIMEOUT_MS * 3 }))
    expect(await testSend(app, r)).toMatchObject({ delivered: false, status_code: null, error: 'timeout' })
    const log = await get(app, '/webhook/deliveries', r)
    expect(log.body).not.toMatch(LEAKS)
    expect(log.json().data.map((d: { attempts: { error: string }[] }) => d.attempts[0].error)).toEqual([
      'timeout',
      'HTTP 503',
      'could not connect',
    ])
  })

  it("the delivery log's attempts of an order event and of its redelivery say the kind too", async () => {
    const transport = createTransport({ production: true, timeoutMs: TIMEOUT_MS, resolve: resolvingTo('10.0.0.7') })
    const { app, ctx, r } = await productionApp(transport, 'https://vm/hook', true)
    const worker = createWebhookWorker(ctx)
    const item = await createAutoItem(app, 1, { price: 1_000 })
    expect((await buy(app, r, 'kinds-1', [{ item_id: item.id, quantity: 1 }])).statusCode).toBe(200)
    await worker.runOnce()
    const [first] = (await get(app, '/webhook/deliveries', r)).json().data
    expect(first.attempts).toEqual([expect.objectContaining({ error: 'address not allowed' })])
    const retried = await app.inject({ method: 'POST', url: `/api/v1/webhook/deliveries/${first.id}/retry`, headers: r.headers })
    expect(retried.statusCode).toBe(200)
    await worker.runOnce()
    const log = await get(app, '/webhook/deliveries', r)
    expect(log.body).not.toMatch(LEAKS)
    const again = log.json().data.find((d: { id: number }) => d.id === first.id)
    expect(again.attempts.map((a: { error: string }) => a.error)).toEqual(['address not allowed', 'address not allowed'])
  })
})

describe('outside production the detail stays', () => {
  it('the resolver and socket text reach the developer', async () => {
    const { app } = await createTestApp({}, {}, { webhookTransport: createTransport({ production: false, timeoutMs: TIMEOUT_MS }) })
    const r = await createReseller(app)
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: r.headers })
    const port = await closedPort()
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url: `http://127.0.0.1:${port}/h` } })
    const outcome = (await app.inject({ method: 'POST', url: '/api/v1/webhook/test', headers: r.headers })).json().data
    expect(outcome.error).toMatch(/ECONNREFUSED 127\.0\.0\.1/)
  })

  it('classifies socket, resolver and certificate errors by their code', () => {
    const coded = (code: string, message = `boom ${code}`) => Object.assign(new Error(message), { code })
    expect(connectionFailure(coded('ECONNREFUSED', 'connect ECONNREFUSED 10.1.1.1:443')).kind).toBe('could not connect')
    expect(connectionFailure(coded('ENOTFOUND')).kind).toBe('could not connect')
    expect(connectionFailure(coded('EAI_AGAIN')).kind).toBe('could not connect')
    expect(connectionFailure(coded('EADDRNOTPUBLIC')).kind).toBe('address not allowed')
    expect(connectionFailure(coded('UND_ERR_CONNECT_TIMEOUT')).kind).toBe('timeout')
    expect(connectionFailure(coded('ECONNRESET')).kind).toBe('connection closed')
    expect(connectionFailure(coded('UND_ERR_SOCKET')).kind).toBe('connection closed')
    for (const code of [
      'CERT_HAS_EXPIRED',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    ])
      expect(connectionFailure(coded(code)).kind, code).toBe('certificate not accepted')
    // Happy Eyeballs answers every address's error together: the first one tells the kind.
    const both = Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ENETUNREACH')], ''), { code: 'ECONNREFUSED' })
    expect(connectionFailure(both)).toEqual({ kind: 'could not connect', detail: 'boom ECONNREFUSED' })
    expect(connectionFailure(new Error('')).kind).toBe('could not connect')
  })
})
