import type { OperationDocs } from '../../http/openapi-docs.js'

const channel = {
  code: 'QRIS',
  name: 'QRIS',
  type: 'qris',
  fee: 750,
  fee_flat: 750,
  fee_percent: 0.7,
  min_amount: 10000,
  max_amount: 10000000,
  status: 'on',
}

/** OpenAPI metadata of the top-up routes (merged by src/http/openapi-docs.ts). */
export const TOPUP_DOCS: OperationDocs = {
  'GET /api/v1/balance/channels': {
    operationId: 'listPaymentChannels',
    description:
      'The payment channels a top-up can use: `code` is what `POST /api/v1/balance` takes as `channel`; `fee` is what the channel adds to the minimum amount.',
    returns: 'The channels',
    response: { message: 'OK', data: [channel] },
  },
  'POST /api/v1/balance': {
    operationId: 'createTopup',
    description:
      'A payment link for `amount` Rupiah (at least 10000, within the channel’s range) on a channel. The balance is credited when the gateway reports the payment; an optional `ref_id` makes the call repeat-safe.',
    returns: 'The top-up, `pending`, with its payment link',
    codes: ['CHANNEL_NOT_FOUND', 'REF_ID_ALREADY_EXIST'],
    request: { amount: 100000, channel: 'QRIS', ref_id: 'topup-2026-11-22-1' },
    response: {
      message: 'OK',
      data: {
        payment_url: 'http://127.0.0.1:8080/pay/T20261122ABCD1234',
        amount: 100000,
        expires_at: '2026-11-23T10:15:00.000Z',
        reference: 'T20261122ABCD1234',
        invoice: 'TOP20261122H3K9P2QA',
        ref_id: 'topup-2026-11-22-1',
        channel: 'QRIS',
        fee: 1450,
        total: 101450,
        status: 'pending',
        created_at: '2026-11-22T10:15:00.000Z',
      },
    },
  },
  'POST /api/v1/callbacks/tripay': {
    operationId: 'tripayCallback',
    description:
      'Called by the Tripay payment gateway, not by resellers: `X-Callback-Signature` is the HMAC-SHA256 of the raw body under the merchant’s private key, `X-Callback-Event` is `payment_status`.',
    returns: 'Acknowledged',
    codes: ['INVALID_SIGNATURE', 'TOPUP_NOT_FOUND'],
    request: { reference: 'T20261122ABCD1234', merchant_ref: 'TOP20261122H3K9P2QA', status: 'PAID' },
    response: { success: true },
  },
}
