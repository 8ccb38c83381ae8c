import fc from 'fast-check'
import { ADMIN_TOKEN } from './app.js'
import type { SentRequest } from './house-shape.js'
import { isObject, type Operation } from './openapi.js'
import { chance, pick, uniform, validValue, type Gen, type Hint } from './fuzz-values.js'
import type { World } from './fuzz-world.js'
import { assemble, settle, type Actor, type Draft } from './fuzz-draft.js'
import { garbageBody, mutateBody, wrongMethod } from './fuzz-body-mutations.js'
import { badAuth, mutateParam, oddHeaders, oddPath } from './fuzz-request-mutations.js'

let sequence = 0
const fresh = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`

// Deep paths get more of the run: they hold the money and the locks.
const DEEP = /\/(trx|order\/sandbox|item\/lock|send|cancel|balance)$|\{lock_token\}$/

/** One generated request: a valid one, or a valid one with one thing broken, or something odd. */
export function generateRequest(g: Gen, ops: Operation[], world: World): SentRequest {
  const weighted = ops.flatMap((op) => (op.method !== 'GET' && DEEP.test(op.path) ? [op, op, op] : [op]))
  const op = pick(g, weighted)
  const draft = validDraft(g, op, world)
  const roll = uniform(g, 99)
  if (roll < 25) return settle(assemble(draft, 'valid'))
  if (roll < 55 && op.body) return settle(mutateBody(g, draft, world))
  if (roll < 68) return settle(mutateParam(g, draft) ?? assemble(draft, 'valid'))
  if (roll < 80) return settle(garbageBody(g, draft))
  if (roll < 90) return settle(oddPath(g, draft))
  if (roll < 94) return settle(badAuth(g, draft))
  if (roll < 96) return settle(wrongMethod(g, draft, ops))
  return settle(oddHeaders(g, draft))
}
// A caller's own tokens: ADMIN_TOKEN has none, a person does.
const SELF = /^\/api\/admin\/v1\/me(\/|$)/

function actorFor(g: Gen, op: Operation, world: World): Actor {
  if (op.audience === 'operator') return { headers: SELF.test(op.path) ? world.me.headers : { authorization: `Bearer ${ADMIN_TOKEN}` } }
  const a = world.accounts[pick(g, [0, 0, 0, 1, 2])]
  return { headers: { 'x-apikey': a.apiKey }, accountId: a.id }
}

function validDraft(g: Gen, op: Operation, world: World): Draft {
  const draft: Draft = { op, actor: actorFor(g, op, world), path: {}, query: [], chosen: {} }
  const hint = hints(g, draft, world)
  for (const p of op.params.filter((p) => p.in === 'path')) draft.path[p.name] = String(validValue(g, p.schema, hint, [`:${p.name}`]))
  for (const p of op.params.filter((p) => p.in === 'query')) {
    if (p.required || chance(g, 0.35)) draft.query.push([p.name, String(validValue(g, p.schema, hint, [`?${p.name}`]))])
  }
  if (op.body) draft.body = validValue(g, op.body, hint)
  // The ledger item's stock is accounted exactly afterwards: operators leave it alone.
  if (op.audience === 'operator' && /\/items\/\{id\}/.test(op.path) && draft.path.id === String(world.ledgerItem.id))
    draft.path.id = String(world.items[0].id)
  return draft
}

/** Realistic values by field name: existing ids, refs and tokens, fresh ref_ids, fitting quantities. */
function hints(g: Gen, draft: Draft, world: World): Hint {
  const own = <T extends { account_id: number }>(rows: T[]) => {
    const mine = rows.filter((r) => r.account_id === draft.actor.accountId)
    return mine.length && chance(g, 0.9) ? mine : rows
  }
  const sellable = draft.op.audience === 'reseller' ? [...world.items, world.ledgerItem] : world.items
  // Only auto items hold licenses: aimed at any item, the licenses route's successes were down to the seed's luck.
  const item = () =>
    draft.op.path.endsWith('/lock') && chance(g, 0.7)
      ? pick(
          g,
          sellable.filter((i) => !i.unlimited),
        )
      : draft.op.path.endsWith('/licenses') && chance(g, 0.5)
        ? pick(
            g,
            sellable.filter((i) => i.order_process === 'auto'),
          )
        : pick(g, sellable)
  const segmentBefore = (param: string) => draft.op.path.split('/').at(draft.op.path.split('/').indexOf(`{${param}}`) - 1)
  return (name, schema, path) => {
    if (chance(g, 0.05)) return undefined
    if (name.startsWith(':')) {
      const param = name.slice(1)
      const resource = segmentBefore(param)
      if (param === 'line') {
        const lines = world.lines.filter((l) => l.order_id === draft.chosen.order)
        const pending = world.lines.filter((l) => l.order_process === 'manual' && l.status === 'pending')
        return { value: (lines.length && chance(g, 0.8) ? pick(g, lines) : pick(g, pending.length ? pending : world.lines)).id }
      }
      // Half the time another account than the three that send reseller requests: fewer of those suspended.
      if (resource === 'resellers') {
        draft.chosen.account = chance(g, 0.5) ? pick(g, world.accounts).id : pick(g, world.accountIds)
        return { value: draft.chosen.account }
      }
      if (resource === 'deliveries' && world.deliveries.length) return { value: pick(g, own(world.deliveries)).id }
      if (resource === 'users' && world.users.length) {
        const theirs = world.users.filter((u) => u.account_id === draft.chosen.account)
        return { value: pick(g, theirs.length && chance(g, 0.9) ? theirs : world.users).id }
      }
      if (resource === 'webhook-deliveries' && world.deliveries.length) {
        const theirs = world.deliveries.filter((d) => d.account_id === draft.chosen.account)
        return { value: pick(g, theirs.length && chance(g, 0.9) ? theirs : world.deliveries).id }
      }
      if (resource === 'items' || resource === 'item') return { value: item().id }
      if (resource === 'transactions') {
        const pending = world.lines.filter((l) => l.status === 'pending')
        const order = pending.length && chance(g, 0.7) ? pick(g, pending).order_id : pick(g, world.orders).id
        draft.chosen.order = order
        return { value: order }
      }
      if (resource === 'trx') {
        const refs = [
          ...own(world.orders).flatMap((o) => [o.ref_id, o.invoice]),
          ...own(world.sandboxes).map((s) => s.ref_id),
          ...own(world.topups).map((t) => t.invoice),
        ]
        const ref = pick(g, refs)
        // The order behind it, for a complaint's order_item_id to name one of its lines.
        draft.chosen.order = world.orders.find((o) => o.ref_id === ref || o.invoice === ref)?.id
        return { value: ref }
      }
      // A complaint of the caller's, mostly one still taking messages.
      if (resource === 'complaints' && world.complaints.length) {
        const mine = own(world.complaints)
        const open = mine.filter((c) => c.status !== 'closed')
        return { value: pick(g, open.length && chance(g, 0.85) ? open : mine).id }
      }
      if (resource === 'lock') return { value: pick(g, own(world.locks)).token }
      if (resource === 'providers') {
        draft.chosen.provider = pick(g, world.providers).code
        return { value: draft.chosen.provider }
      }
      // A held price of the provider chosen, mostly one still undecided (a decided one is a 422).
      if (resource === 'held' && world.held.length) {
        const open = world.held.filter((h) => h.provider === draft.chosen.provider && h.open)
        return { value: pick(g, open.length && chance(g, 0.8) ? open : world.held).id }
      }
      // A delete mostly aims at an empty one (else it is INVALID_STATE); other requests at any.
      if ((resource === 'categories' || resource === 'products') && world[resource].length) {
        const empty = world[resource].filter((r) => r.empty)
        return { value: pick(g, draft.op.method === 'DELETE' && empty.length && chance(g, 0.8) ? empty : world[resource]).id }
      }
      // Another person (never the fuzz's own), mostly one not removed; then one of their tokens, or of `me` on /me.
      if (resource === 'operators' && world.operators.length) {
        const holders = new Set(world.tokens.filter((t) => t.live).map((t) => t.operator_id))
        const aimed = world.operators.filter((o) => (draft.op.path.includes('/tokens') ? holders.has(o.id) : o.status !== 'removed'))
        draft.chosen.operator = pick(g, aimed.length && chance(g, 0.9) ? aimed : world.operators).id
        return { value: draft.chosen.operator }
      }
      if (resource === 'tokens' && world.tokens.length) {
        const owner = SELF.test(draft.op.path) ? world.me.id : draft.chosen.operator
        const theirs = world.tokens.filter((t) => t.operator_id === owner)
        const live = theirs.filter((t) => t.live)
        return { value: pick(g, live.length && chance(g, 0.8) ? live : theirs.length ? theirs : world.tokens).id }
      }
      if (resource === 'channels') return { value: pick(g, world.channels) }
      if (resource === 'pricing-rules' && world.pricingRules.length) return { value: pick(g, world.pricingRules) }
      if (resource === 'price-levels') return { value: pick(g, world.levels) }
      if (resource === 'bank-mutations' && world.bank.mutations.length) {
        const open = world.bank.mutations.filter((m) => m.status === 'unmatched')
        return { value: pick(g, open.length && chance(g, 0.85) ? open : world.bank.mutations).id }
      }
      if (resource === 'topups') {
        const review = world.topups.filter((t) => t.status === 'review')
        const resolving = draft.op.path.endsWith('/resolve') && review.length && chance(g, 0.8)
        return { value: pick(g, resolving ? review : world.topups).reference }
      }
      // An open complaint, mostly one whose line the step fits: upstream for a re-check, delivered for a resend or refund.
      if (resource === 'complaints' && world.complaints.length) {
        const open = world.complaints.filter((c) => c.status !== 'closed')
        const step = draft.op.path.split('/').at(-1)
        const fits = open.filter((c) =>
          step === 'recheck'
            ? c.order_process === 'h2h' || c.order_process === 'smm'
            : step === 'resend' || step === 'refund'
              ? c.line_status === 'delivered' || c.line_status === 'sent'
              : true,
        )
        return { value: pick(g, fits.length && chance(g, 0.85) ? fits : open.length ? open : world.complaints).id }
      }
      if (resource === 'dispatches' && world.dispatches.length)
        return { value: pick(g, world.dispatches.filter((d) => d.status === 'review').concat(world.dispatches.slice(0, 1))).id }
      return undefined
    }
    if (name === '?account_id') return { value: pick(g, world.accountIds) }
    if (name === '?channel' && draft.op.path.includes('/bank-mutations'))
      return { value: chance(g, 0.9) ? world.bank.channel : pick(g, world.channels) }
    if (name === '?updated_since') return { value: new Date(Date.now() - g(fc.nat, { max: 3_600_000 })).toISOString() }
    if (name === '?category') return { value: pick(g, ['Uncategorized', '1', 'Games']) }
    if (path.length === 0 && isObject(schema.properties) && 'carts' in schema.properties && 'lock_token' in schema.properties) {
      const locks = world.locks.filter((l) => l.account_id === draft.actor.accountId && l.status === 'active')
      if (locks.length && chance(g, 0.3)) {
        const lock = pick(g, locks)
        draft.chosen.lock = lock.token
        return {
          value: { ref_id: fresh('fz'), carts: [{ item_id: lock.item_id, quantity: lock.quantity }], lock_token: lock.token },
          partial: true,
        }
      }
    }
    if (isObject(schema.properties) && 'item_id' in schema.properties && 'customer_id' in schema.properties) {
      // A bill's routes aim at postpaid items (paying mostly without an inquiry: it asks one), a validation at items that validate.
      const meta = (i: World['items'][number]) => (i.restore.provider_meta ?? {}) as { validation?: boolean; postpaid?: boolean }
      const bill = draft.op.path.includes('/tagihan')
      const aimed = world.items.filter((i) => (bill ? meta(i).postpaid : meta(i).validation))
      const it = aimed.length && chance(g, 0.8) ? pick(g, aimed) : item()
      const value: Record<string, unknown> = { item_id: it.id, customer_id: it.note ?? '0812' }
      if ('inquiry_id' in schema.properties && chance(g, 0.8)) value.inquiry_id = null
      return { value, partial: true }
    }
    if (isObject(schema.properties) && 'item_id' in schema.properties && 'quantity' in schema.properties) {
      const it = item()
      const quantity = it.price >= 1e12 ? pick(g, [1, 1000, 1001, 999_999]) : Math.min(it.min + uniform(g, 2), it.max ?? Infinity)
      const value: Record<string, unknown> = { item_id: it.id, quantity }
      if ('note' in schema.properties && (it.note || chance(g, 0.2))) value.note = it.note ?? '0812'
      if ('lock_duration' in schema.properties && chance(g, 0.5)) value.lock_duration = g(fc.integer, { min: 60, max: 600 })
      return { value, partial: true }
    }
    // An item's hand-set prices: mostly another level than the default, at or above the item's own price (below
    // its floor an item stops selling at that level), or back to the rules.
    if (path.length === 0 && draft.op.path.endsWith('/level-prices')) {
      const others = world.levels.filter((l) => l !== 'reseller')
      const code = pick(g, others.length && chance(g, 0.9) ? others : world.levels)
      const own = world.items.find((i) => String(i.id) === draft.path.id)?.price ?? 1_000
      return { value: { [code]: chance(g, 0.7) ? own + uniform(g, 1_000) : null } }
    }
    // A line of the transaction in the path that takes a complaint: bought, not given back, none open on it.
    if (name === 'order_item_id' && path.length === 1) {
      const complained = new Set(world.complaints.filter((c) => c.status !== 'closed').map((c) => c.order_line_id))
      const lines = world.lines.filter(
        (l) =>
          l.order_id === draft.chosen.order && ['pending', 'processing', 'delivered', 'sent'].includes(l.status) && !complained.has(l.id),
      )
      if (!lines.length || chance(g, 0.1)) return undefined
      const { id } = pick(g, lines)
      return { value: chance(g, 0.7) ? String(id) : id }
    }
    switch (name) {
      case 'rules':
        return draft.op.path.includes('/price-levels/')
          ? { value: chance(g, 0.3) ? [] : [{ scope: 'all', percent: g(fc.integer, { min: 0, max: 50 }), round_to: 50 }] }
          : undefined
      case 'price_level':
        return { value: pick(g, world.levels) }
      case 'promote_to':
        return { value: chance(g, 0.5) ? null : pick(g, world.levels) }
      case 'ref_id': {
        const used = own(world.orders)
        return { value: chance(g, 0.9) || !used.length ? fresh('fz') : pick(g, used).ref_id }
      }
      case 'topup_reference': {
        const pending = world.bank.transfers.filter((t) => t.status === 'pending')
        return world.bank.transfers.length
          ? { value: pick(g, pending.length && chance(g, 0.85) ? pending : world.bank.transfers).reference }
          : undefined
      }
      case 'csv':
        return {
          value: `date,description,amount,type\n2026-12-06,${fresh('FZ TRSF')},${g(fc.integer, { min: 1, max: 5_000_000 })},${pick(g, ['CR', 'DB'])}\n`,
        }
      case 'lock_token':
        return { value: pick(g, [null, '']) }
      case 'reference':
        return { value: chance(g, 0.8) ? fresh('fz-ref') : 'fz-ref-reused' }
      case 'amount':
        return { value: chance(g, 0.9) ? g(fc.integer, { min: 1, max: 1_000_000 }) : -g(fc.integer, { min: 1, max: 10_000 }) }
      case 'licenses':
        return { value: Array.from({ length: g(fc.integer, { min: 1, max: 3 }) }, () => fresh('FZ-LIC')) }
      case 'channel':
        return { value: pick(g, world.channels) }
      case 'provider':
        return { value: chance(g, 0.8) ? pick(g, world.providers).code : null }
      case 'code':
        return path.length === 1 ? { value: fresh('fz-p').toLowerCase() } : undefined
      case 'base_url':
        return { value: 'http://127.0.0.1:9/v1' }
      case 'ip_allowlist':
        return { value: chance(g, 0.8) ? [] : ['127.0.0.1', '::1/128'] }
      case 'status':
        return draft.op.path.includes('resellers') && chance(g, 0.9) ? { value: 'active' } : undefined
      case 'sku':
        return { value: fresh('FZ-SKU') }
      case 'active':
        return { value: chance(g, 0.85) }
    }
    return undefined
  }
}
