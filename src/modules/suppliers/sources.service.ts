import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { OrderProcess } from '../../db/schema.js'
import { AppError, type FieldErrors } from '../../errors.js'
import { followFirstSource, lockItemForSources } from '../catalog/index.js'
import { repriceItems } from './reprice.service.js'
import { itemExists, listItemSources, providerKinds, replaceItemSources, type SourceRow } from './sources.queries.js'

export type SourceInput = { provider: string; code: string; priority: number }

const view = (itemId: number, rows: SourceRow[]) => ({
  item_id: itemId,
  sources: rows.map((r) => ({
    provider: r.provider,
    kind: r.kind,
    code: r.code,
    priority: r.priority,
    product:
      r.name === null
        ? null
        : {
            name: r.name,
            price: Number(r.price),
            active: r.active === true,
            gone_at: r.gone_at,
            cut_off_start: r.cut_off_start,
            cut_off_end: r.cut_off_end,
          },
    serving_now: r.serving_now,
  })),
})

export async function getItemSources(db: Database, itemId: number) {
  if (!(await itemExists(db, itemId))) throw new AppError('ITEM_NOT_FOUND')
  return view(itemId, await listItemSources(db, itemId))
}

/**
 * Every reason the list cannot be the item's, by field; empty when it can. `kind`: the provider kind the
 * item's process buys from (lockItemForSources answers it; null: none).
 */
async function sourceErrors(trx: Trx, process: OrderProcess, kind: string | null, sources: SourceInput[]): Promise<FieldErrors> {
  const errors: FieldErrors = {}
  const add = (path: string, sentence: string) => (errors[path] ??= []).push(sentence)
  if (!kind && sources.length > 0) add('sources', `must be empty: a ${process} item is not bought from a supplier`)
  const kinds = await providerKinds(trx, [...new Set(sources.map((s) => s.provider))])
  sources.forEach((s, i) => {
    const at = `sources.${i}`
    const providerKind = kinds.get(s.provider)
    if (providerKind === undefined) add(`${at}.provider`, 'no provider has this code: see GET /api/admin/v1/providers')
    else if (kind && providerKind !== kind)
      add(`${at}.provider`, `is a ${providerKind} provider; a ${process} item is bought from a ${kind} one`)
    if (s.code.trim() === '') add(`${at}.code`, 'must not be blank')
    const before = sources.findIndex((o) => o.priority === s.priority)
    if (before < i) add(`${at}.priority`, `must differ from sources.${before}.priority`)
    const same = sources.findIndex((o) => o.provider === s.provider && o.code.trim() === s.code.trim())
    if (same < i) add(`${at}.code`, `is already sources.${same} at this provider`)
  })
  return errors
}

/**
 * Replaces an item's sources (docs/design.md §11b) in one transaction: the item locked, the list checked
 * whole (422 naming each bad field), written, the item's provider pointed at the first source, and
 * its cost and price recomputed from the first that serves.
 */
export async function putItemSources(db: Database, itemId: number, input: SourceInput[]) {
  const sources = input.map((s) => ({ ...s, code: s.code.trim() })).sort((a, b) => a.priority - b.priority)
  await inTransaction(db, async (trx) => {
    const item = await lockItemForSources(trx, itemId)
    const errors = await sourceErrors(trx, item.order_process, item.provider_kind, input)
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', { fieldErrors: errors })
    await replaceItemSources(trx, itemId, sources)
    await followFirstSource(trx, itemId, sources[0])
    await repriceItems(trx, [itemId])
  })
  return getItemSources(db, itemId)
}
