import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { findChannel } from './channels.service.js'
import { payPageHtml } from './pay-page.js'
import { ReferenceParam } from './topups.schemas.js'
import { findGatewayTopup, payTopup } from './topups.service.js'

/**
 * The simulator gateway's hosted pay page (docs/design.md §7, §12: outside production, under /sim/). A plain
 * form POST, no script; the form carries a keyed token of the reference, so a page that does not
 * know it cannot post a payment.
 */
export function payPageRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const confirmToken = (reference: string) => ctx.vault.fingerprint(`sim-pay:${reference}`)
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    })
    const simulated = (reference: string) => findGatewayTopup(ctx.db, 'simulator', reference)
    app.get('/sim/pay/:reference', { schema: { hide: true, params: ReferenceParam } }, async (request, reply) => {
      const topup = await simulated(request.params.reference)
      const channel = await findChannel(ctx.db, topup.channel)
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(payPageHtml(topup, channel?.name ?? topup.channel, confirmToken(topup.reference), ctx.config.leaderboardTz))
    })
    app.post('/sim/pay/:reference', { schema: { hide: true, params: ReferenceParam } }, async (request, reply) => {
      const topup = await simulated(request.params.reference)
      const form = (request.body ?? {}) as Record<string, unknown>
      if (form.confirm !== confirmToken(topup.reference)) throw new AppError('INVALID_SIGNATURE')
      await payTopup(ctx.db, topup.reference, 'page')
      // Post/redirect/get: a reload shows the outcome instead of posting again.
      return reply.redirect(encodeURIComponent(topup.reference), 303)
    })
  }
}
