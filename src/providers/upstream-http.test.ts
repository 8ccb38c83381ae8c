import http from 'node:http'
import type net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { depositBalance, inquirePln, sendTransaction } from './digiflazz.js'
import { inquireBill, sendPostpaid } from './digiflazz-postpaid.js'
import { readDigiflazzPriceList } from './digiflazz-price-list.js'
import { addOrder, orderStates, panelBalance } from './smm-panel.js'
import { readPanelServices } from './smm-services.js'
import type { ProviderAccount } from './upstream-http.js'

type Drop = 'reset' | 'close'
type Received = { what: string; dropped: boolean }

/**
 * A provider on 127.0.0.1 that keeps connections alive, answers each one's first request and drops
 * the connection when it is used again, as an upstream that closed it as idle while the next request
 * was on its way: `reset` sends an RST (ECONNRESET), `close` a FIN ("other side closed").
 */
async function dropsReusedConnections(drop: Drop) {
  const served = new WeakMap<net.Socket, number>()
  const received: Received[] = []
  const server = http.createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const n = (served.get(req.socket) ?? 0) + 1
    served.set(req.socket, n)
    const json = req.headers['content-type'] === 'application/json' ? (JSON.parse(body) as { commands?: string }) : undefined
    const what = json ? (json.commands ?? req.url!) : new URLSearchParams(body).get('action')!
    received.push({ what, dropped: n > 1 })
    if (n > 1) return drop === 'reset' ? req.socket.resetAndDestroy() : req.socket.destroy()
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(answers[what] ?? {}))
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  const account: ProviderAccount = {
    code: 'fake',
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    username: 'u',
    apiKey: 'k',
  }
  // The first connection, answered; then idle, so the next call's first request goes on it.
  expect(await depositBalance(account, 5_000)).toBeDefined()
  await new Promise((resolve) => setImmediate(resolve))
  return { account, received }
}

/** What `call` sent to a provider of its own whose one used connection lies idle. */
async function sentBy<T>(drop: Drop, call: (account: ProviderAccount) => Promise<T>): Promise<{ result: T; sent: Received[] }> {
  const { account, received } = await dropsReusedConnections(drop)
  const from = received.length
  const result = await call(account)
  return { result, sent: received.slice(from) }
}

const product = { buyer_sku_code: 'P1', product_name: 'Pulsa 5k', price: 5_100, admin: 2_500, buyer_product_status: true }
const paid = { rc: '00', status: 'Sukses', sn: 'SN9', message: 'Sukses', price: 2_500 }
const answers: Record<string, unknown> = {
  '/price-list': { data: [product] },
  '/cek-saldo': { data: { deposit: '150000' } },
  '/inquiry-pln': { data: { name: 'BUDI', meter_no: '123', segment_power: 'R1 /900' } },
  'inq-pasca': { data: { ...paid, customer_name: 'BUDI', desc: { detail: [{ periode: '202612', nilai_tagihan: 50_000 }] } } },
  'status-pasca': { data: paid },
  services: [{ service: 1, name: 'Followers', rate: '0.9', category: 'Instagram', min: 10, max: 1000 }],
  balance: { balance: '12.5', currency: 'USD' },
  status: { 7: { status: 'Completed', start_count: '0', remains: '0' } },
}
const closers: (() => Promise<void>)[] = []
afterEach(() => Promise.all(closers.splice(0).map((close) => close())))

describe.each<Drop>(['reset', 'close'])('a kept-alive connection the provider drops when it is reused (%s)', (drop) => {
  it('fails no read: each request it dropped is sent once more, on a new connection, and answered', async () => {
    const req = { sku: 'PLN', customerNo: '123', refId: 'r1' }
    const reads: Record<string, (account: ProviderAccount) => Promise<unknown>> = {
      list: (account) => readDigiflazzPriceList(account, 5_000),
      services: (account) => readPanelServices(account, 5_000),
      deposit: (account) => depositBalance(account, 5_000),
      panelBalance: (account) => panelBalance(account, 5_000),
      states: async (account) => (await orderStates(account, ['7'], 5_000))?.get('7')?.state,
      meter: (account) => inquirePln(account, '123', 5_000),
      bill: async (account) => (await inquireBill(account, req, 5_000)).kind,
      billStatus: async (account) => (await sendPostpaid(account, 'status-pasca', req, 5_000)).status,
    }
    const results: Record<string, unknown> = {}
    for (const [name, read] of Object.entries(reads)) {
      const { result, sent } = await sentBy(drop, read)
      results[name] = result
      // Its first request found a used connection; every dropped one was followed by the same, answered.
      expect(sent[0]?.dropped, name).toBe(true)
      sent.forEach((r, i) => r.dropped && expect(sent[i + 1], name).toEqual({ what: r.what, dropped: false }))
    }
    expect(results).toMatchObject({
      list: {
        ok: true,
        skipped: 0,
        products: [
          { code: 'P1', postpaid: false },
          { code: 'P1', postpaid: true },
        ],
      },
      services: { ok: true, products: [{ code: '1', price: '0.9' }] },
      deposit: { balance: '150000' },
      panelBalance: { balance: '12.5' },
      states: 'completed',
      meter: { found: true, name: 'BUDI' },
      bill: 'bill',
      billStatus: 'completed',
    })
  })

  it('never sends a request that may place an order twice: it stays unanswered, for the order’s own checks', async () => {
    const prepaid = await sentBy(drop, (account) => sendTransaction(account, { sku: 'P1', customerNo: '0812', refId: 'r1' }, 5_000))
    expect(prepaid.sent).toEqual([{ what: '/transaction', dropped: true }])
    // Not refused: the request left, and Digiflazz may have taken it.
    expect(prepaid.result).toEqual({
      status: 'pending',
      sn: null,
      message: expect.stringMatching(/^provider unreachable: (ECONNRESET|UND_ERR_SOCKET)$/),
    })

    const bill = await sentBy(drop, (account) => sendPostpaid(account, 'pay-pasca', { sku: 'PLN', customerNo: '123', refId: 'r2' }, 5_000))
    expect(bill.sent).toEqual([{ what: 'pay-pasca', dropped: true }])
    expect(bill.result).toMatchObject({ status: 'pending', sn: null })

    // Not `not_sent`: the panel may have taken it, and `add` has no reference to ask it by.
    const panel = await sentBy(drop, (account) => addOrder(account, { service: '1', link: 'https://x.test/p', quantity: 100 }, 5_000))
    expect(panel.sent).toEqual([{ what: 'add', dropped: true }])
    expect(panel.result.result).toBe('unknown')
  })
})
