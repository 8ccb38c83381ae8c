import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { mootaSimulator } from '../../providers/moota-simulator.js'
import { bankTransferPageHtml } from './bank-transfer-page.js'
import { mootaSecret } from './moota-secret.js'
import { ReferenceParam } from './topups.schemas.js'
import { findBankTransfer } from './bank-transfer.service.js'

/**
 * A bank-transfer top-up's instructions page (docs/design.md §7b): its payment_url, served in
 * production too. Outside production its "Simulate transfer" has the Moota simulator push the
 * transfer, signed, to this service's own hook (in-process), as Moota would.
 */
export function bankTransferPageRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  // The simulated transfer signs its push like Moota: only where the hook has a secret to check it with.
  const simulating = ctx.config.appEnv !== 'production' && mootaSecret(ctx) !== undefined
  const confirmToken = (reference: string) => ctx.vault.fingerprint(`sim-transfer:${reference}`)
  return async (app) => {
    if (simulating)
      app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)))
      })
    const transfer = (reference: string) => findBankTransfer(ctx.db, reference)
    app.get('/pay/bank/:reference', { schema: { hide: true, params: ReferenceParam } }, async (request, reply) => {
      const topup = await transfer(request.params.reference)
      const simulate = simulating ? { confirm: confirmToken(topup.reference) } : undefined
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'same-origin')
        .send(bankTransferPageHtml(topup, ctx.config.leaderboardTz, simulate))
    })
    if (!simulating) return
    app.post('/pay/bank/:reference/simulate', { schema: { hide: true, params: ReferenceParam } }, async (request, reply) => {
      const topup = await transfer(request.params.reference)
      const form = (request.body ?? {}) as Record<string, unknown>
      if (form.confirm !== confirmToken(topup.reference)) throw new AppError('INVALID_SIGNATURE')
      const moota = mootaSimulator(mootaSecret(ctx)!, async (payload, headers) => {
        const res = await app.inject({ method: 'POST', url: '/api/hooks/moota', headers, payload })
        return res.statusCode
      })
      const status = await moota.push([moota.credit(topup.pay_account_number!, topup.total)])
      if (status !== 200) throw new AppError('SERVICE_UNAVAILABLE', { detail: `the hook answered ${status}` })
      // Post/redirect/get: a reload shows the outcome instead of pushing again.
      return reply.redirect(`/pay/bank/${encodeURIComponent(topup.reference)}`, 303)
    })
  }
}
