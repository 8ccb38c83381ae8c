import { operations } from '../../http/operation.js'

const created = '2026-11-22T10:15:00.000Z'
const purchase = { id: 1042, invoice: 'INV20261122K7Q2M9XA', ref_id: 'shop-order-881', amount: 25000, status: 'paid', created_at: created }
const createdPurchase = {
  id: 1042,
  invoice: 'INV20261122K7Q2M9XA',
  ref_id: 'shop-order-881',
  status: 'paid',
  price: 25000,
  fees: 0,
  amount: 25000,
  contact: 'shop@example.com',
  created_at: created,
}
const detail = {
  id: 1042,
  ref_id: 'shop-order-881',
  invoice: 'INV20261122K7Q2M9XA',
  payment_method: 'saldo',
  status: 'completed',
  price: 25000,
  fees: 0,
  amount: 25000,
  note: null,
  payment_link: null,
  qr_link: null,
  expired_at: null,
  created_at: created,
  updated_at: '2026-11-22T10:15:00.012Z',
  items: [
    {
      order_item_id: '5120',
      variant_id: 7,
      variant_name: 'Voucher 25K',
      product_id: 3,
      product_name: 'Game Voucher',
      quantity: 1,
      qty: 1,
      price: 25000,
      subtotal: 25000,
      note: null,
      buyer_note: null,
      target: null,
      order_process: 'auto',
      status: 'completed',
      product_license: 'ABCD-EFGH-IJKL',
      licenses: [{ product_license: 'ABCD-EFGH-IJKL', note: null }],
      seller_note: null,
      description: 'Redeem in the game shop within 30 days.',
    },
  ],
  h2h_results: [],
  smm_results: [],
}
const priceAboveMax = (field: string) => ({
  message: 'PRICE_ABOVE_MAX',
  errors: { [field]: ['the price is now 10150; send max_price ≥ 10150 or leave it out'] },
  data: { item_id: 7, price: 10150 },
})
const refIdTaken = { message: 'REF_ID_ALREADY_EXIST', errors: { ref_id: ['The ref id has already been used.'] }, data: purchase }

/** OpenAPI metadata of the reseller transaction routes (each carried by its route’s schema). */
export const ORDER_DOCS = operations({
  createPurchase: {
    returns: 'The transaction, `paid`, with `price`, `fees` (0) and `contact` (the account’s email, or null)',
    codes: [
      'INVALID_JSON',
      'BAD_REQUEST',
      'VALIDATION_ERROR',
      'BALANCE_IS_INSUFFICIENT',
      'SMM_ORDER_REQUIRES_JSON_NOTE',
      'ITEM_NOT_FOUND',
      'LOCK_NOT_FOUND',
      'REF_ID_ALREADY_EXIST',
      'REQUIRED_FIELD_MISSING',
      'MINIMUM_ORDER_NOT_MET',
      'OUT_OF_STOCK',
      'PRICE_ABOVE_MAX',
      'LOCK_EXPIRED',
      'LOCK_MISMATCH',
      'LOCK_ALREADY_USED',
      'LOCK_RELEASED',
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    ],
    request: { ref_id: 'shop-order-881', carts: [{ item_id: 7, quantity: 1, max_price: 25000 }] },
    response: { message: 'OK', data: createdPurchase },
    errorExamples: {
      REF_ID_ALREADY_EXIST: refIdTaken,
      MINIMUM_ORDER_NOT_MET: {
        message: 'MINIMUM_ORDER_NOT_MET',
        errors: { 'carts.0.quantity': ['must be at least 2 (the minimum order)'] },
      },
      REQUIRED_FIELD_MISSING: {
        message: 'REQUIRED_FIELD_MISSING',
        errors: { 'carts.0.note': ['the target number, account or link is required'] },
      },
      OUT_OF_STOCK: {
        message: 'OUT_OF_STOCK',
        errors: { 'carts.1.quantity': ['only 2 available'] },
        data: { item_id: 7, available: 2 },
      },
      BALANCE_IS_INSUFFICIENT: {
        message: 'BALANCE_IS_INSUFFICIENT',
        errors: { balance: ['is 12000, less than 45000, the cost of this order: top up at least 33000'] },
        data: { balance: 12000, required: 45000 },
      },
      LOCK_MISMATCH: {
        message: 'LOCK_MISMATCH',
        errors: { carts: ['must have exactly one line with item_id 7 and quantity 2, as the lock holds'] },
        data: { item_id: 7, quantity: 2 },
      },
      ITEM_NOT_FOUND: {
        message: 'ITEM_NOT_FOUND',
        errors: { 'carts.1.item_id': ['no active item has this id: see GET /api/v1/item'] },
      },
      PRICE_ABOVE_MAX: priceAboveMax('carts.0.max_price'),
    },
  },
  getTransaction: {
    description:
      'One transaction of yours by `ref_id` or `invoice`, with its lines and licenses, and the upstream results (`h2h_results`, `smm_results`) both at the top level and inside `data`. A delivered line reads `completed`. A top-up or a sandbox order is found by its `ref_id` too: a top-up shows `price` (what the balance gains), `fees` (what the payer adds), `amount` = `price` + `fees`, `payment_link`, `qr_link` (QRIS channels) and `expired_at`, all null for a purchase. Poll this after a purchase, or rely on webhooks.',
    returns: 'The transaction',
    codes: ['VALIDATION_ERROR', 'TRX_NOT_FOUND'],
    response: { message: 'OK', data: detail, h2h_results: [], smm_results: [] },
  },
  listTransactions: {
    codes: ['VALIDATION_ERROR'],
    description: 'Your purchases, newest first, one page at a time (`page`, `per_page` ≤ 50), optionally of one `status`.',
    returns: 'A page of transactions',
    response: {
      message: 'OK',
      data: [purchase],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
  createSandboxOrder: {
    description:
      "Runs every check of a purchase except the balance (the item, its minimum, the stock, the `ref_id`, and the note rules of its line: `note` as in a purchase's cart line, and `max_price`) and stores a `sandbox` order: nothing is charged, reserved or delivered. Use it to test an integration; its `ref_id` stays usable for a real purchase.",
    returns: 'The sandbox order',
    codes: [
      'VALIDATION_ERROR',
      'ITEM_NOT_FOUND',
      'REF_ID_ALREADY_EXIST',
      'MINIMUM_ORDER_NOT_MET',
      'REQUIRED_FIELD_MISSING',
      'SMM_ORDER_REQUIRES_JSON_NOTE',
      'OUT_OF_STOCK',
      'PRICE_ABOVE_MAX',
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    ],
    request: { ref_id: 'sandbox-17', item_id: 7, quantity: 1, note: '081234567890' },
    errorExamples: {
      REF_ID_ALREADY_EXIST: { ...refIdTaken, data: { ...purchase, invoice: 'SBX20261122Q4M8T2ZA', status: 'sandbox' } },
      PRICE_ABOVE_MAX: priceAboveMax('max_price'),
    },
    response: { message: 'OK', data: { id: 12, ref_id: 'sandbox-17', invoice: 'SBX20261122Q4M8T2ZA', status: 'sandbox' } },
  },
})
