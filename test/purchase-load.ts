import { expect } from 'vitest'
import { ADMIN_TOKEN } from './app.js'
import { adminCall } from './server-process.js'
import { eventually } from './eventually.js'

type Status = number | 'hang' | 'network'
/** What one purchase request got: a status, or `hang` when it did not answer within HANG_MS. */
export type Outcome = { key: string; ref: string; item: number; status: Status; ms: number }

export type Shop = { accounts: number[]; keys: string[]; items: number[]; manual: { id: number; stock: number } }

// Far above the few seconds a lost or hung database may take to answer 503.
export const HANG_MS = 10_000

/** Funded accounts, auto items with licenses and a limited manual item, through the operator API. */
export async function openShop(base: string, tag: string): Promise<Shop> {
  const accounts = await Promise.all(
    [0, 1, 2, 3].map(async (i) => {
      const account = await adminCall(base, 'POST', '/resellers', { name: `${tag} ${i}` })
      await adminCall(base, 'POST', `/resellers/${account.id}/balance`, { amount: 50_000_000, reason: `${tag} drill` })
      return account as { id: number; api_key: string }
    }),
  )
  const items = await Promise.all(
    [0, 1, 2].map(async (i) => {
      const item = await adminCall(base, 'POST', '/items', {
        product_name: tag,
        name: `${tag} ${i}`,
        price: 1_000 + i,
        order_process: 'auto',
      })
      await adminCall(base, 'POST', `/items/${item.id}/licenses`, { licenses: Array.from({ length: 600 }, (_, n) => `${tag}-${i}-${n}`) })
      return item.id as number
    }),
  )
  const manual = await adminCall(base, 'POST', '/items', {
    product_name: tag,
    name: `${tag} manual`,
    price: 500,
    order_process: 'manual',
    stock: 300,
  })
  return { accounts: accounts.map((a) => a.id), keys: accounts.map((a) => a.api_key), items, manual: { id: manual.id, stock: 300 } }
}

export async function purchase(base: string, key: string, ref: string, item: number): Promise<Outcome> {
  const started = Date.now()
  try {
    const res = await fetch(`${base}/api/v1/trx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': key },
      body: JSON.stringify({ ref_id: ref, carts: [{ item_id: item, quantity: 1 }] }),
      signal: AbortSignal.timeout(HANG_MS),
    })
    const body = (await res.json()) as { message?: unknown }
    // Every answer keeps the house shape, failures included.
    expect(typeof body.message, `${res.status} ${JSON.stringify(body)}`).toBe('string')
    return { key, ref, item, status: res.status, ms: Date.now() - started }
  } catch (error) {
    return { key, ref, item, status: (error as Error).name === 'TimeoutError' ? 'hang' : 'network', ms: Date.now() - started }
  }
}

/** Any other request: its status, or `hang` / `network`. */
async function call(url: string, init: RequestInit): Promise<Status> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) })
    const body = (await res.json()) as { message?: unknown }
    expect(typeof body.message, `${url} ${res.status} ${JSON.stringify(body)}`).toBe('string')
    return res.status
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'hang' : 'network'
  }
}

/**
 * Buyers in a loop until stop(), each pausing between purchases (the stock lasts). Beside the
 * purchase (one statement), each reads its order back and now and then an operator credits an
 * account (a transaction): queries through the query builder, between which a connection may die.
 */
export function startLoad(base: string, shop: Shop, tag: string, buyers = 8, pauseMs = 50) {
  const outcomes: Outcome[] = []
  const others: { what: string; status: Status }[] = []
  let running = true
  let sent = 0
  const buyer = async (b: number) => {
    const key = shop.keys[b % shop.keys.length]
    while (running) {
      const n = ++sent
      const item = n % 5 === 0 ? shop.manual.id : shop.items[n % shop.items.length]
      const bought = await purchase(base, key, `${tag}-${b}-${n}`, item)
      outcomes.push(bought)
      if (bought.status === 200) {
        others.push({
          what: 'read',
          status: await call(`${base}/api/v1/trx/${encodeURIComponent(bought.ref)}`, { headers: { 'x-apikey': key } }),
        })
      }
      if (n % 4 === 0) {
        const body = JSON.stringify({ amount: 1, reason: 'drill credit', reference: `${tag}-credit-${n}` })
        const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
        others.push({
          what: 'credit',
          status: await call(`${base}/api/admin/v1/resellers/${shop.accounts[b % shop.accounts.length]}/balance`, {
            method: 'POST',
            headers,
            body,
          }),
        })
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  }
  const done = Promise.all(Array.from({ length: buyers }, (_, b) => buyer(b)))
  return {
    outcomes,
    others,
    acknowledged: () => outcomes.filter((o) => o.status === 200).length,
    async stop() {
      running = false
      await done
      return outcomes
    },
  }
}

/** Until a purchase succeeds again (the service recovers by itself); `withinMs` only ends a hung run. */
export async function untilPurchasesSucceed(base: string, shop: Shop, tag: string, withinMs = 60_000): Promise<Outcome[]> {
  const tries: Outcome[] = []
  await eventually(
    `a purchase succeeds again (${tag})`,
    async () => {
      tries.push(await purchase(base, shop.keys[0], `${tag}-recover-${tries.length}`, shop.items[0]))
      return tries.slice(-3)
    },
    (last) => last[last.length - 1].status === 200,
    { timeoutMs: withinMs, intervalMs: 200 },
  )
  return tries
}

/**
 * Nothing but 200, refusals of stock (422) and 503: never a 500, a hang or a dropped connection.
 * Every acknowledged purchase is there; one answered 503 may have committed (the connection died
 * after COMMIT was sent), so posting it again answers 200 or REF_ID_ALREADY_EXIST with the order.
 */
export async function expectOnlyOkOrUnavailable(base: string, outcomes: Outcome[], others: { what: string; status: Status }[]) {
  const unexpected = outcomes.filter((o) => o.status !== 200 && o.status !== 503 && o.status !== 422)
  expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([])
  const unexpectedOthers = others.filter((o) => o.status !== 200 && o.status !== 503)
  expect(unexpectedOthers, JSON.stringify(unexpectedOthers.slice(0, 5))).toEqual([])
  for (const o of outcomes.filter((x) => x.status === 200)) {
    const res = await fetch(`${base}/api/v1/trx/${encodeURIComponent(o.ref)}`, { headers: { 'x-apikey': o.key } })
    expect(res.status, o.ref).toBe(200)
    expect(['completed', 'paid']).toContain(((await res.json()) as { data: { status: string } }).data.status)
  }
  for (const o of outcomes.filter((x) => x.status === 503)) {
    const again = await purchase(base, o.key, o.ref, o.item)
    expect([200, 422], o.ref).toContain(again.status)
  }
}
