import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { PageNumber, StringEnum } from '../../http/schemas.js'
import { floorBlockedItems } from '../reports/index.js'
import { decideHeldPrice, heldPrices, providerSyncs, supplierChanges, syncProvider } from '../suppliers/index.js'
import { Optional, noticeOf } from './form.js'

const hide = true
const PER_PAGE = 50
const CodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
const HeldParam = Type.Object({ code: CodeParam.properties.code, id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

/** Suppliers' price lists (docs/design.md §11b): each provider's last sync, a sync on demand, and what the syncs found changed. */
export function supplierPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  const settings = {
    syncMinutes: ctx.config.supplierSyncMinutes,
    timeoutMs: ctx.config.providerTimeoutMs,
    jumpPercent: ctx.config.supplierPriceJumpPercent,
  }
  return async (app) => {
    app.get(
      '/console/suppliers',
      {
        config: { operationId: 'adminListSupplierChanges' },
        schema: {
          hide,
          querystring: Type.Object({
            provider: Optional(Type.String({ maxLength: 64 })),
            kind: Optional(StringEnum(['', 'new', 'price', 'status', 'gone', 'back', 'held'])),
            page: Optional(PageNumber),
            done: Optional(Type.String({ maxLength: 20 })),
          }),
        },
      },
      async (request, reply) => {
        const { kind, page = 1 } = request.query
        const providers = await providerSyncs(db)
        // The changes of the provider asked for, else of the first one.
        const provider = providers.find((p) => p.code === request.query.provider) ?? providers[0]
        const changes = provider
          ? await supplierChanges(db, provider.code, { kind: kind || undefined, page, perPage: PER_PAGE })
          : { rows: [], total: 0 }
        // The holds waiting for a decision, newest first (the change log keeps every one).
        const held = provider ? (await heldPrices(db, provider.code, { status: 'pending', page: 1, perPage: 100 })).rows : []
        const link = (to: number) =>
          `?${new URLSearchParams(Object.entries({ provider: provider?.code, kind, page: to }).flatMap(([k, v]) => (v ? [[k, String(v)]] : [])))}`
        return reply.page('suppliers.eta', {
          providers,
          blocked: await floorBlockedItems(db),
          provider,
          changes: changes.rows,
          held,
          jumpPercent: ctx.config.supplierPriceJumpPercent,
          total: changes.total,
          kind: kind ?? '',
          page,
          next: Number(changes.total) > page * PER_PAGE ? link(page + 1) : undefined,
          previous: page > 1 ? link(page - 1) : undefined,
          notice: noticeOf(request.query),
        })
      },
    )
    // Asks the provider now; a list that could not be read is recorded as a failed sync, shown on the page.
    app.post(
      '/console/providers/:code/sync',
      { config: { operationId: 'adminSyncSupplier' }, schema: { hide, params: CodeParam } },
      async (request, reply) => {
        const { code } = request.params
        let done = 'sync'
        try {
          await syncProvider(db, ctx.vault, code, { force: true }, settings)
        } catch (error) {
          if (!(error instanceof AppError) || !['SERVICE_UNAVAILABLE', 'INVALID_STATE'].includes(error.code)) throw error
          done = error.code === 'INVALID_STATE' ? 'sync-busy' : 'sync-failed'
        }
        return reply.redirect(`/console/suppliers?provider=${encodeURIComponent(code)}&done=${done}`, 303)
      },
    )
    for (const [action, decision, operationId] of [
      ['approve', 'approved', 'adminApproveHeldPrice'],
      ['reject', 'rejected', 'adminRejectHeldPrice'],
    ] as const)
      app.post(
        `/console/providers/:code/held/:id/${action}`,
        { config: { operationId }, schema: { hide, params: HeldParam } },
        async (request, reply) => {
          const { code, id } = request.params
          await decideHeldPrice(db, code, id, decision)
          return reply.redirect(`/console/suppliers?provider=${encodeURIComponent(code)}&done=held-${decision}`, 303)
        },
      )
  }
}
