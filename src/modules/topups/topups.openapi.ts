import { operations } from '../../http/operation.js'

const channel = {
  code: 'QRIS',
  name: 'QRIS',
  type: 'qris',
  fee: 820,
  fee_flat: 750,
  fee_percent: 0.7,
  amount: 10000,
  total: 10820,
  min_amount: 10000,
  max_amount: 10000000,
  status: 'on',
}

/** OpenAPI metadata of the top-up routes (each carried by its route’s schema). */
export const TOPUP_DOCS = operations({
  listPaymentChannels: {
    codes: ['VALIDATION_ERROR'],
    description:
      'The payment channels a top-up can use: `code` is what `POST /api/v1/balance` takes as `channel`; `fee` = `fee_flat` + `fee_percent` % of an amount, rounded up to the Rupiah, is what the payer adds. Send `?amount=` to see `fee` and `total` for the amount you mean to top up; without it they are for each channel’s `min_amount`. `amount` says which.',
    returns: 'The channels',
    response: { message: 'OK', data: [channel] },
  },
  createTopup: {
    returns: 'The top-up, `pending`, with its payment link',
    codes: ['VALIDATION_ERROR', 'CHANNEL_NOT_FOUND', 'REF_ID_ALREADY_EXIST'],
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
    errorExamples: {
      REF_ID_ALREADY_EXIST: {
        message: 'REF_ID_ALREADY_EXIST',
        errors: { ref_id: ['The ref id has already been used.'] },
        data: {
          id: 31,
          invoice: 'TOP20261122H3K9P2QA',
          ref_id: 'topup-2026-11-22-1',
          amount: 100000,
          status: 'pending',
          created_at: '2026-11-22T10:15:00.000Z',
        },
      },
    },
  },
  tripayCallback: {
    description:
      'Called by the Tripay payment gateway, not by resellers: `X-Callback-Signature` is the HMAC-SHA256 of the raw body under the merchant’s private key, `X-Callback-Event` is `payment_status`. A `PAID` credits the balance once when `total_amount` is the top-up’s `total`; any other total, or none, credits nothing and leaves the top-up in `review` for an operator.',
    returns: 'Acknowledged',
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR', 'INVALID_SIGNATURE', 'TOPUP_NOT_FOUND'],
    request: { reference: 'T20261122ABCD1234', merchant_ref: 'TOP20261122H3K9P2QA', status: 'PAID', total_amount: 101450 },
    response: { success: true },
  },
})

const operatorChannel = {
  code: 'QRIS',
  name: 'QRIS',
  type: 'qris',
  fee_flat: 750,
  fee_percent: 0.7,
  min_amount: 10000,
  max_amount: 5000000,
  active: true,
  bank: null,
  account_number: null,
  account_name: null,
  created_at: '2026-11-20T08:00:00.000Z',
  updated_at: '2026-11-20T08:00:00.000Z',
}
const reference = 'SIM5F0C2A9B7E41D3C8A06B2F19'
const operatorTopup = {
  id: 57,
  account_id: 12,
  ref_id: 'topup-2026-11-22-1',
  invoice: 'TOP20261122H3K9P2QA',
  reference,
  gateway: 'simulator',
  channel: 'QRIS',
  amount: 100000,
  fee: 1450,
  total: 101450,
  status: 'pending',
  gateway_status: null,
  payment_url: `http://127.0.0.1:8080/sim/pay/${reference}`,
  expires_at: '2026-11-22T11:15:00.000Z',
  paid_at: null,
  paid_total: null,
  review_reason: null,
  credited_amount: null,
  resolution_reason: null,
  resolved_at: null,
  unique_code: null,
  pay_bank: null,
  pay_account_number: null,
  pay_account_name: null,
  created_at: '2026-11-22T10:15:00.000Z',
}
const reviewedTopup = {
  ...operatorTopup,
  reference: 'T0001000000057',
  gateway: 'tripay',
  payment_url: 'https://tripay.co.id/checkout/T0001000000057',
  gateway_status: 'PAID',
  paid_total: 1,
  review_reason: "tripay reported PAID with total_amount 1; the top-up's total is 101450",
}

/** OpenAPI metadata of the operator's channel and top-up routes (each carried by its route’s schema). */
export const TOPUP_ADMIN_DOCS = operations({
  adminListChannels: {
    description: 'Payment channels, on and off.',
    response: {
      message: 'OK',
      data: [
        operatorChannel,
        { ...operatorChannel, code: 'DANA', name: 'DANA', type: 'ewallet', fee_flat: 0, fee_percent: 3, active: false },
      ],
    },
  },
  adminCreateChannel: {
    description: 'Adds a payment channel; `code` is what resellers send as `channel`.',
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: { code: 'QRIS', name: 'QRIS', type: 'qris', fee_flat: 750, fee_percent: 0.7, max_amount: 5000000 },
    response: { message: 'OK', data: operatorChannel },
  },
  adminUpdateChannel: {
    description: 'Changes a channel: name, type, fees, range, on/off.',
    codes: ['VALIDATION_ERROR', 'CHANNEL_NOT_FOUND'],
    request: { active: false },
    response: { message: 'OK', data: { ...operatorChannel, active: false, updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  adminSyncChannels: {
    description:
      'Imports the payment gateway’s channel list: new channels are added, known ones take the gateway’s name, fee and range; on/off stays yours.',
    response: { message: 'OK', data: { added: 2, updated: 3 } },
  },
  adminListTopups: {
    codes: ['VALIDATION_ERROR'],
    description:
      'Top-ups of every account, newest first; filter by status (`review`: the gateway reported another paid total, waiting for `POST /api/admin/v1/topups/{reference}/resolve`).',
    response: { message: 'OK', data: [operatorTopup], meta: { page: 1, per_page: 50, total: 1, last_page: 1 } },
  },
  adminPayTopup: {
    description: 'Marks a simulator top-up paid, as its pay page does; the balance is credited once.',
    codes: ['VALIDATION_ERROR', 'TOPUP_NOT_FOUND', 'TOPUP_EXPIRED', 'INVALID_STATE'],
    response: {
      message: 'OK',
      data: { ...operatorTopup, status: 'paid', paid_at: '2026-11-22T10:17:30.000Z', credited: true },
    },
  },
  adminExpireTopup: {
    description:
      'Retires a pending top-up at once: `expired` from now, nothing credited (a reseller who will not pay it, a total to free). A bank transfer’s total stays reserved 7 days from now, and a transfer that still comes in that time is matched to it as to any expired top-up. A top-up not pending is 409 INVALID_STATE.',
    codes: ['VALIDATION_ERROR', 'TOPUP_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { ...operatorTopup, status: 'expired' } },
  },
  adminResolveTopup: {
    description:
      'Settles a top-up in `review` (its gateway reported a paid total other than `total`, or none): `credit_amount` is credited once (the requested `amount`, another amount; the top-up turns `paid`), or 0 credits nothing (`failed`). `reason` is kept with the top-up and, for a credit, in the ledger entry. A top-up not in review is 409 INVALID_STATE.',
    codes: ['VALIDATION_ERROR', 'TOPUP_NOT_FOUND', 'INVALID_STATE'],
    request: { credit_amount: 100000, reason: 'bank statement shows 101,450 received; the gateway misreported' },
    response: {
      message: 'OK',
      data: {
        ...reviewedTopup,
        status: 'paid',
        paid_at: '2026-11-22T12:02:00.000Z',
        credited_amount: 100000,
        resolution_reason: 'bank statement shows 101,450 received; the gateway misreported',
        resolved_at: '2026-11-22T12:02:00.000Z',
      },
    },
    errorExamples: {
      INVALID_STATE: { message: 'INVALID_STATE', errors: { reference: ['the top-up is paid, not in review'] } },
    },
  },
})
