import { operations } from '../../http/operation.js'

const opened = {
  id: 31,
  author: 'reseller',
  action: 'open',
  message: 'The code says it was already redeemed.',
  created_at: '2026-11-23T08:00:00.000Z',
}
const reply = {
  id: 32,
  author: 'operator',
  action: 'reply',
  message: 'Checking with the supplier; we will answer within a day.',
  created_at: '2026-11-23T09:30:00.000Z',
}
const complaint = {
  id: 17,
  ref_id: 'shop-order-881',
  invoice: 'INV20261122K7Q2M9XA',
  order_item_id: '5121',
  reason: 'invalid_code',
  status: 'open',
  resolution: null,
  refunded_amount: 0,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T08:00:00.000Z',
  closed_at: null,
  messages: [opened],
}
const answered = { ...complaint, status: 'answered', updated_at: reply.created_at, messages: [opened, reply] }
const { messages: _thread, ...summary } = answered

const trxNotFound = { message: 'TRX_NOT_FOUND' }
const notFound = { message: 'COMPLAINT_NOT_FOUND' }
const alreadyOpen = {
  message: 'COMPLAINT_ALREADY_OPEN',
  errors: { order_item_id: ['this line has an open complaint: add a message to it (POST /v1/complaints/{id}/messages)'] },
}
const lineRefused = {
  message: 'COMPLAINT_NOT_ALLOWED',
  errors: { order_item_id: ['complaints are taken within 7 days of the order'] },
}
const closed = { message: 'COMPLAINT_NOT_ALLOWED', errors: { id: ['the complaint is closed: open a new one on the line'] } }
const notALine = {
  message: 'VALIDATION_ERROR',
  errors: { order_item_id: ['is not a line of this transaction: use an order_item_id its items show'] },
}

/** OpenAPI metadata of the reseller's complaint routes (docs/design.md §14), each carried by its route’s schema. */
export const COMPLAINT_DOCS = operations({
  openComplaint: {
    description:
      'Complains about one line of your transaction (`ref_id` or invoice in the path; `order_item_id` from its `items`), within `COMPLAINT_DAYS` of the order (7 unless the operator changed it; 0 takes none). One open complaint per line: a second is 422 `COMPLAINT_ALREADY_OPEN` (add a message to the open one). A canceled or refunded line, or an order past the window, is 422 `COMPLAINT_NOT_ALLOWED`. Each change of the complaint (your message, the store’s reply, its closing) is sent as the `complaint.updated` webhook.',
    returns: 'The complaint, `open`, with its first message',
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR', 'TRX_NOT_FOUND', 'COMPLAINT_ALREADY_OPEN', 'COMPLAINT_NOT_ALLOWED'],
    request: { order_item_id: '5121', reason: 'invalid_code', message: 'The code says it was already redeemed.' },
    response: { message: 'OK', data: complaint },
    errorExamples: {
      VALIDATION_ERROR: notALine,
      TRX_NOT_FOUND: trxNotFound,
      COMPLAINT_ALREADY_OPEN: alreadyOpen,
      COMPLAINT_NOT_ALLOWED: lineRefused,
    },
  },
  listOrderComplaints: {
    description: 'Every complaint on one of your transactions (`ref_id` or invoice), oldest first, each with its thread.',
    returns: 'The transaction’s complaints',
    codes: ['VALIDATION_ERROR', 'TRX_NOT_FOUND'],
    response: { message: 'OK', data: [answered] },
    errorExamples: { TRX_NOT_FOUND: trxNotFound },
  },
  listComplaints: {
    description:
      'Your complaints, newest first, one page at a time (`page`, `per_page` ≤ 50, `cursor`), optionally of one `status`; without their threads (read one with `GET /api/v1/complaints/{id}`).',
    returns: 'A page of complaints',
    codes: ['VALIDATION_ERROR'],
    response: {
      message: 'OK',
      data: [summary],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
  getComplaint: {
    description: 'One complaint of yours with its thread, oldest message first.',
    returns: 'The complaint',
    codes: ['VALIDATION_ERROR', 'COMPLAINT_NOT_FOUND'],
    response: { message: 'OK', data: answered },
    errorExamples: { COMPLAINT_NOT_FOUND: notFound },
  },
  addComplaintMessage: {
    description:
      'Adds your message to a complaint that is not closed; an `answered` complaint is `open` again (waiting for the store). A closed one is 422 `COMPLAINT_NOT_ALLOWED`: open a new complaint on the line.',
    returns: 'The complaint with its thread',
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR', 'COMPLAINT_NOT_FOUND', 'COMPLAINT_NOT_ALLOWED'],
    request: { message: 'Still not working, I tried it twice.' },
    response: {
      message: 'OK',
      data: {
        ...answered,
        status: 'open',
        updated_at: '2026-11-23T10:00:00.000Z',
        messages: [
          opened,
          reply,
          {
            id: 33,
            author: 'reseller',
            action: 'message',
            message: 'Still not working, I tried it twice.',
            created_at: '2026-11-23T10:00:00.000Z',
          },
        ],
      },
    },
    errorExamples: { COMPLAINT_NOT_FOUND: notFound, COMPLAINT_NOT_ALLOWED: closed },
  },
})
