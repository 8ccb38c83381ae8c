import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError, invalidField } from '../../errors.js'
import { refuseAuthentication } from '../../http/auth.js'
import { operation } from '../../http/operation.js'
import { keepRawJsonBody } from '../../http/raw-body.js'
import { isTripayCallbackSigned, type TripayCallback } from '../../providers/tripay.js'
import { recordGatewayPaid } from './topup-review.service.js'
import { findGatewayTopup, recordGatewayStatus } from './topups.service.js'
import { TOPUP_DOCS } from './topups.openapi.js'

const STATUSES = ['PAID', 'EXPIRED', 'FAILED', 'REFUND'] as const
const CallbackBody = Type.Object({
  reference: Type.String({ minLength: 1, maxLength: 200 }),
  merchant_ref: Type.String({ minLength: 1, maxLength: 200 }),
  status: Type.String(),
  // Any shape: a signed PAID with an unusable total goes to review rather than bouncing back to Tripay.
  total_amount: Type.Optional(Type.Unknown()),
})

/**
 * Tripay's payment_status callback (outside X-APIKEY auth). X-Callback-Signature signs the raw
 * body, so this route parses JSON itself and keeps the bytes: a re-serialised body would not match.
 * Answers {"success": true} once the status is recorded; a repeat changes nothing and answers the same.
 * A PAID credits only when its total_amount is the top-up's total; else the top-up waits in review.
 */
export function tripayCallbackRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    keepRawJsonBody(app)
    app.post(
      '/api/v1/callbacks/tripay',
      {
        // The signature is checked before the body's shape is.
        preValidation: async (request) => {
          const privateKey = ctx.config.tripay?.privateKey
          const signature = request.headers['x-callback-signature']
          if (!privateKey || !request.rawBody) throw new AppError('INVALID_SIGNATURE')
          // A wrong signature is a guess at the private key: counted per address like every failed authentication.
          if (!isTripayCallbackSigned(privateKey, request.rawBody, typeof signature === 'string' ? signature : undefined))
            return refuseAuthentication(ctx, request, new AppError('INVALID_SIGNATURE'))
          if (request.headers['x-callback-event'] !== 'payment_status') throw invalidField('X-Callback-Event', 'must be payment_status')
        },
        schema: {
          tags: ['gateway'],
          summary: 'Tripay payment_status callback (signed with X-Callback-Signature)',
          body: CallbackBody,
          ...operation('public', TOPUP_DOCS.tripayCallback, { 200: Type.Object({ success: Type.Literal(true) }) }),
        },
      },
      async (request) => {
        const body = request.body as TripayCallback
        if (!STATUSES.includes(body.status)) throw invalidField('status', `must be one of ${STATUSES.join(', ')}`)
        const topup = await findGatewayTopup(ctx.db, 'tripay', body.reference)
        if (topup.invoice !== body.merchant_ref) throw new AppError('TOPUP_NOT_FOUND')
        if (body.status === 'PAID') {
          // Another paid total than asked, or none, waits for an operator (docs/design.md §7).
          const { review } = await recordGatewayPaid(ctx.db, topup, body.total_amount)
          if (review)
            request.log.warn(
              { invoice: topup.invoice, total: topup.total, total_amount: body.total_amount },
              'tripay PAID another total: top-up in review',
            )
        } else {
          const row = await recordGatewayStatus(ctx.db, topup.reference, body.status)
          if (body.status === 'REFUND')
            request.log.warn({ invoice: row.invoice, status: row.status }, 'tripay refunded a top-up: the balance is left to the operator')
        }
        return { success: true as const }
      },
    )
  }
}
