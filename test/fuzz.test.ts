import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from './app.js'
import { onPostgres } from './database.js'
import { generateRequest } from './fuzz-requests.js'
import { heal, refresh } from './fuzz-upkeep.js'
import { seedWorld } from './fuzz-world.js'
import { FailureLog, checkAnswer, type Answer, type SentRequest } from './house-shape.js'
import { assertInvariants } from './invariants.js'
import { loadOperations } from './openapi.js'
import { startUpstreams } from './upstreams.js'

// Reproducible: the same seed sends the same requests. FUZZ_SEED replays another run, FUZZ_RUNS sizes it.
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122)
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)
const HEAL_EVERY = 400

const upstreams = await startUpstreams()
afterAll(() => upstreams.close())
const { app, ctx } = await createTestApp({ VALIDATION_SOURCE_URL: `${upstreams.base}/validation`, PROVIDER_TIMEOUT_MS: '2000' })
const operations = await loadOperations(app)
const world = await seedWorld(app, ctx.db, upstreams.base)
// Prices for the operator to approve or reject: a second read of the h2h provider's list finds a
// few tripled, past the jump a sync applies (SUPPLIER_PRICE_JUMP_PERCENT), and holds them.
for (let round = 0; round < 2; round++) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/v1/providers/fz-h2h/sync?force=true',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.statusCode, res.body).toBe(200)
  for (const [code, price] of [
    ['ml86', 19_500],
    ['ml172', 38_900],
    ['ff140', 18_200],
    ['tsel10', 10_150],
    ['tsel25', 24_900],
    ['pln20', 20_150],
  ] as const)
    upstreams.digiflazz.priceLists.prepaid.change(code, { price: price * 3 })
}
await refresh(world, ctx.db)
expect(world.held.filter((h) => h.open).length).toBe(6)

const failures = new FailureLog()
const perOperation = new Map<string, { sent: number; ok: number }>()
let unsendable = 0

async function send(req: SentRequest): Promise<Answer | undefined> {
  let res
  try {
    res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      payload: req.payload,
      remoteAddress: req.remoteAddress,
    })
  } catch {
    // A request no HTTP client could send (an illegal header byte): nothing reached the app.
    unsendable++
    return undefined
  }
  // An operator rotated a fuzz account's key: its requests go on with the new one.
  const data =
    res.statusCode === 200 && req.op.audience === 'operator' && String(res.headers['content-type']).startsWith('application/json')
      ? (JSON.parse(res.body) as { data?: { id?: number; api_key?: string } }).data
      : undefined
  const rotated = world.accounts.find((a) => data?.api_key && a.id === data.id)
  if (rotated) rotated.headers['x-apikey'] = rotated.apiKey = data!.api_key!
  return { statusCode: res.statusCode, headers: res.headers, body: res.body }
}

describe(`fuzz: ${RUNS} requests generated from the OpenAPI document (seed ${SEED})`, () => {
  it('answers every one without a 5xx, in the house shape, with the contract status where it is decided', async () => {
    console.log(
      `fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${RUNS} requests over ${operations.length} operations on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`,
    )
    expect(operations.filter((o) => o.audience === 'reseller').length).toBeGreaterThan(5)
    expect(operations.filter((o) => o.audience === 'operator').length).toBeGreaterThan(5)
    let sent = 0
    const started = Date.now()
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const req = generateRequest(g, operations, world)
        const res = await send(req)
        if (res) {
          const tally = perOperation.get(req.op.id) ?? { sent: 0, ok: 0 }
          tally.sent++
          if (res.statusCode < 300) tally.ok++
          perOperation.set(req.op.id, tally)
          failures.add(req, res, checkAnswer(req, res))
        }
        if (++sent % HEAL_EVERY === 0) await heal(app, ctx.db, world)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(`fuzz: ${RUNS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${unsendable} could not be sent)`)
    const report = failures.report()
    if (report) console.log(`fuzz failures (${failures.groups.size} groups):\n${report}`)
    expect(unsendable, 'requests the harness could not send').toBeLessThan(RUNS / 100)
    expect(failures.groups.size, 'failure classes (each listed above with its shortest reproduction)').toBe(0)
  }, 600_000)

  it('reached every reseller and operator operation, each with at least one success', () => {
    const missing = operations
      .filter((o) => (perOperation.get(o.id)?.ok ?? 0) === 0)
      .map((o) => `${o.id}: ${JSON.stringify(perOperation.get(o.id))}`)
    expect(missing).toEqual([])
  })

  it('leaves the invariants of docs/design.md §5 intact', async () => {
    await assertInvariants(ctx.db, { [world.ledgerItem.id]: world.ledgerStock })
  })

  it('kept every balance, price and amount within 10^15 (docs/design.md §3), whatever was asked', async () => {
    const { rows } = await sql<{ what: string; n: string }>`
      SELECT 'account ' || id AS what, balance::text AS n FROM accounts WHERE balance > 1e15
      UNION ALL SELECT 'order ' || id, amount::text FROM orders WHERE amount > 1e15
      UNION ALL SELECT 'sandbox order ' || id, amount::text FROM sandbox_orders WHERE amount > 1e15
      UNION ALL SELECT 'item ' || id, price::text FROM items WHERE price > 1e15`.execute(ctx.db)
    expect(rows).toEqual([])
  })
})
