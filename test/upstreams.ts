import Fastify from 'fastify'
import type net from 'node:net'
import { upstreamSimulators, type UpstreamSimulators } from '../src/providers/simulators.js'
import type { App } from '../src/http/server.js'
import type { Database } from '../src/db/database.js'
import { admin, createItem } from './factory.js'

export type Upstreams = UpstreamSimulators & {
  base: string
  /** While true, every request is held unanswered (the provider hangs: callers time out). */
  hang: boolean
  /** Requests received while hanging, answered never. */
  held: number
  close(): Promise<void>
}

/**
 * The service's own upstream simulators, served by a real listener on 127.0.0.1 (a fake provider);
 * with `delayMs`, each request is taken that long after it arrived (a provider that takes its time).
 */
export async function startUpstreams(options: { delayMs?: number } = {}): Promise<Upstreams> {
  const sims = upstreamSimulators()
  // Keep-alive sockets of the service's HTTP client must not hold close() open.
  const app = Fastify({ forceCloseConnections: true })
  const holding = new Set<() => void>()
  const state = { hang: false, held: 0 }
  if (options.delayMs) app.addHook('onRequest', () => new Promise<void>((resolve) => setTimeout(resolve, options.delayMs)))
  app.addHook('onRequest', async (request) => {
    if (!state.hang) return
    state.held++
    // Held until close: the caller gives up first; its request never reaches the simulator.
    await new Promise<void>((resolve) => holding.add(resolve))
    request.raw.destroy()
    throw new Error('held until the fake provider closed')
  })
  await app.register(sims.plugin)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as net.AddressInfo).port
  const upstreams: Upstreams = {
    ...sims,
    base: `http://127.0.0.1:${port}`,
    get hang() {
      return state.hang
    },
    set hang(on: boolean) {
      state.hang = on
    },
    get held() {
      return state.held
    },
    async close() {
      holding.forEach((release) => release())
      await app.close()
    },
  }
  return upstreams
}

/** One simulator registered as the operator's provider `code`: the Digiflazz one or the SMM panel v2 one. */
export async function addSimulatedProvider(app: App, up: Upstreams, kind: 'digiflazz' | 'smm_panel', code: string): Promise<void> {
  await admin(
    app,
    'POST',
    '/providers',
    kind === 'digiflazz'
      ? { code, kind, base_url: `${up.base}/digiflazz/v1`, username: 'demo', api_key: 'demo-key' }
      : { code, kind, base_url: `${up.base}/smm/api/v2`, api_key: 'demo-key' },
  )
}

/** The simulators as the operator's providers: `dgf` (Digiflazz) and, unless left out, `panel` (SMM panel v2). */
export async function addSimulatedProviders(app: App, up: Upstreams, options: { panel?: boolean } = {}): Promise<void> {
  await addSimulatedProvider(app, up, 'digiflazz', 'dgf')
  if (options.panel !== false) await addSimulatedProvider(app, up, 'smm_panel', 'panel')
}

export type Source = { provider: string; code: string; priority: number }

/**
 * An h2h or smm item bought from `sources` (docs/design.md §11b), priced so every source keeps the floor
 * (docs/design.md §11c; test/floor.test.ts has the sources that do not); its price once repriced from
 * its first serving source (no pricing rule: its price, raised to its cost).
 */
export async function itemWithSources(app: App, db: Database, process: 'h2h' | 'smm', sources: Source[]) {
  const [first] = sources
  const item = await createItem(app, {
    order_process: process,
    price: process === 'h2h' ? 40_000 : 2,
    unlimited_stock: true,
    provider: first!.provider,
    provider_code: first!.code,
    ...(process === 'smm' && { min_order: 10, max_order: 10_000 }),
  })
  await admin(app, 'PUT', `/items/${item.id}/sources`, { sources })
  const { price } = await db.selectFrom('items').select('price').where('id', '=', item.id).executeTakeFirstOrThrow()
  return { id: item.id as number, price }
}
