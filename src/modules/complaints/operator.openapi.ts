import { operations } from '../../http/operation.js'

// The operator's complaint routes' docs and examples (docs/design.md §14).
const summary = {
  id: 12,
  account_id: 7,
  account_name: 'Toko Maju',
  order_id: 5310,
  ref_id: 'ORDER-1042',
  invoice: 'INV20261206AB12CD34',
  order_item_id: '9120',
  product_name: 'Steam Wallet',
  variant_name: 'Steam Wallet IDR 60.000',
  order_process: 'auto',
  reason: 'invalid_code',
  status: 'open',
  resolution: null,
  refunded_amount: 0,
  age_minutes: 95,
  waiting_since: '2026-12-06T03:00:00.000Z',
  due_at: '2026-12-07T03:00:00.000Z',
  overdue: false,
  created_at: '2026-12-06T03:00:00.000Z',
  updated_at: '2026-12-06T03:00:00.000Z',
  closed_at: null,
}
const opened = {
  id: 41,
  author: 'reseller',
  author_name: 'Toko Maju',
  action: 'open',
  message: 'The code says already redeemed.',
  created_at: '2026-12-06T03:00:00.000Z',
}
const detail = {
  ...summary,
  order: { id: 5310, ref_id: 'ORDER-1042', invoice: 'INV20261206AB12CD34', status: 'completed' },
  line: {
    id: 9120,
    product_name: 'Steam Wallet',
    variant_name: 'Steam Wallet IDR 60.000',
    order_process: 'auto',
    status: 'delivered',
    quantity: 1,
    subtotal: 61_500,
    refunded_amount: 0,
    delivered_at: '2026-12-06T02:58:00.000Z',
    upstream: null,
  },
  messages: [opened],
}
const closed = (resolution: string, action: string, message: string, extra: object = {}) => ({
  message: 'OK',
  data: {
    ...detail,
    status: 'closed',
    resolution,
    waiting_since: null,
    due_at: null,
    updated_at: '2026-12-06T04:35:00.000Z',
    closed_at: '2026-12-06T04:35:00.000Z',
    ...extra,
    messages: [
      opened,
      { id: 42, author: 'operator', author_name: 'Sari (support)', action, message, created_at: '2026-12-06T04:35:00.000Z' },
    ],
  },
})
const STEP_CODES = ['VALIDATION_ERROR', 'COMPLAINT_NOT_FOUND', 'COMPLAINT_NOT_ALLOWED'] as const
const closedRefusal = { message: 'COMPLAINT_NOT_ALLOWED', errors: { id: ['the complaint is closed: nothing more to do on it'] } }

export const COMPLAINT_OPERATOR_DOCS = operations({
  adminListComplaints: {
    description:
      'The complaints queue (`view=queue`, the default): every complaint not closed, oldest first, each with its age and, while a reseller waits (`open`), `due_at` (COMPLAINT_SLA_HOURS after the first unanswered reseller message) and `overdue`. `view=all`: every complaint, newest first. Filters: status, reason, account_id.',
    codes: ['VALIDATION_ERROR'],
    response: { message: 'OK', data: [summary], meta: { page: 1, per_page: 50, total: 1, last_page: 1 } },
  },
  adminGetComplaint: {
    description:
      'One complaint with its whole thread (each author’s name shown), its order, its line (subtotal, what was refunded) and, for h2h and smm lines, the latest upstream request with its SN or status.',
    codes: ['COMPLAINT_NOT_FOUND'],
    response: { message: 'OK', data: detail },
  },
  adminReplyComplaint: {
    description:
      'An answer to the reseller: the complaint turns `answered` (a reseller message opens it again) and complaint.updated is sent.',
    codes: [...STEP_CODES],
    request: { message: 'We are checking the code with the publisher; we will answer within the hour.' },
    response: {
      message: 'OK',
      data: {
        ...detail,
        status: 'answered',
        waiting_since: null,
        due_at: null,
        messages: [
          opened,
          {
            id: 42,
            author: 'operator',
            author_name: 'Sari (support)',
            action: 'reply',
            message: 'We are checking the code with the publisher; we will answer within the hour.',
            created_at: '2026-12-06T03:20:00.000Z',
          },
        ],
      },
    },
    errorExamples: { COMPLAINT_NOT_ALLOWED: closedRefusal },
  },
  adminResendComplaint: {
    description:
      'Delivers the line again and closes the complaint `resent`. `mode: auto` (auto lines): the line’s licenses turn `void` (never back in stock) and as many from the item’s stock are sold to it; none free is 422 INSUFFICIENT_STOCK. `mode: manual`: the replacement typed, stored encrypted (an auto line’s licenses turn void). Either way the reseller gets order.item.sent and reads the new license in the transaction. Only a delivered or sent line is resent.',
    codes: [...STEP_CODES, 'INSUFFICIENT_STOCK'],
    request: { mode: 'auto' },
    response: closed('resent', 'resend', 'A replacement was sent; read it in the transaction.'),
    errorExamples: {
      INSUFFICIENT_STOCK: {
        message: 'INSUFFICIENT_STOCK',
        errors: { mode: ['No license of this item is free for a resend: add licenses, or resend with mode manual and a typed one.'] },
        data: { item_id: 88, available: 0, wanted: 1 },
      },
    },
  },
  adminRecheckComplaint: {
    description:
      'Asks the provider about the line’s latest upstream request — never a new order: Digiflazz by the same ref_id (only a request it has answered), an SMM panel by `status` of its order. Delivered upstream closes the complaint `resolved` with the SN in the thread; otherwise it is `answered` with what the provider said. An auto or manual line is 422 COMPLAINT_NOT_ALLOWED; a provider that does not answer is 503 and changes nothing.',
    codes: [...STEP_CODES, 'SERVICE_UNAVAILABLE'],
    response: closed('resolved', 'recheck', 'Delivered at the provider, SN 0512345678901234: Transaksi Sukses', {
      order_process: 'h2h',
      line: {
        ...detail.line,
        order_process: 'h2h',
        upstream: {
          id: 311,
          provider: 'dgf',
          kind: 'digiflazz',
          upstream_ref: 'INV20261206AB12CD34-1-1',
          upstream_order_id: null,
          status: 'completed',
          upstream_status: null,
          sn: '0512345678901234',
          message: 'Transaksi Sukses',
        },
      },
    }),
  },
  adminRefundComplaint: {
    description:
      'Refunds the line exactly once: what is left of its recorded subtotal (less what settlement already gave back, e.g. an SMM partial), never today’s price, credited to the balance with reference `complaint:<id>`; the line turns `refunded`, the order keeps its status, the complaint closes `refunded`. A line still in flight upstream, one refunded already, or a closed complaint is 422 COMPLAINT_NOT_ALLOWED. finance, admin and owner only.',
    codes: [...STEP_CODES],
    request: { message: 'Refunded in full: the publisher confirmed the code was used before.' },
    response: closed('refunded', 'refund', 'Refunded in full: the publisher confirmed the code was used before.', {
      refunded_amount: 61_500,
    }),
    errorExamples: {
      COMPLAINT_NOT_ALLOWED: {
        message: 'COMPLAINT_NOT_ALLOWED',
        errors: {
          order_item_id: ['The line is still in flight upstream, canceled or refunded already: refund it once it is final.'],
        },
      },
    },
  },
  adminRejectComplaint: {
    description: 'Closes the complaint `rejected` with the reason, which the reseller reads; nothing is refunded or sent.',
    codes: [...STEP_CODES],
    request: { reason: 'The code was redeemed on 6 Dec at 03:10 from your customer’s account.' },
    response: closed('rejected', 'reject', 'The code was redeemed on 6 Dec at 03:10 from your customer’s account.'),
    errorExamples: { COMPLAINT_NOT_ALLOWED: closedRefusal },
  },
})
