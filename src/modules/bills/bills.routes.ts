import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { CreatedOrder } from '../orders/index.js'
import { BillInquiry, BillInquiryBody, BillPaymentBody } from './bills.schemas.js'
import { askBill } from './inquiry.service.js'
import { BILL_DOCS } from './bills.openapi.js'

const tags = ['transactions']

/** Postpaid bills (docs/design.md §5c): ask for a bill, then pay it as a purchase. */
export function billRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const deps = {
    db: ctx.db,
    prepared: ctx.prepared,
    vault: ctx.vault,
    fulfillable: ctx.fulfillable,
    providerTimeoutMs: ctx.config.providerTimeoutMs,
  }
  return async (app) => {
    app.post(
      '/trx/tagihan/inquiry',
      {
        schema: {
          tags,
          summary: 'Ask for a postpaid bill (PLN, BPJS, PDAM, …) before paying it',
          body: BillInquiryBody,
          ...operation('reseller', BILL_DOCS.inquireBill, { 200: BillInquiry }),
        },
      },
      async (request) => ok(await askBill(deps, request.account.id, request.body)),
    )
    app.post(
      '/trx/tagihan',
      {
        schema: {
          tags,
          summary: 'Pay a postpaid bill with the balance',
          body: BillPaymentBody,
          ...operation('reseller', BILL_DOCS.payBill, { 200: CreatedOrder }),
        },
      },
      async (request) => ok(await ctx.checkout.payBill(deps, request.account.id, request.body)),
    )
  }
}
