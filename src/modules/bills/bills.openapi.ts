import { operations } from '../../http/operation.js'

const inquiry = {
  inquiry_id: 318,
  item_id: 12,
  customer_id: '530000000001',
  customer_name: 'PELANGGAN 0001',
  period: '202610',
  bill_count: 1,
  bill_amount: 150000,
  admin_fee: 2500,
  penalty: 0,
  amount: 152500,
  expires_at: '2026-11-22T10:30:00.000Z',
  details: [{ period: '202610', bill_amount: 150000, admin: 2500, penalty: 0 }],
}
const paid = {
  id: 1043,
  invoice: 'INV20261122P3LN7QZA',
  ref_id: 'shop-bill-77',
  status: 'paid',
  price: 152500,
  fees: 0,
  amount: 152500,
  contact: 'shop@example.com',
  created_at: '2026-11-22T10:16:02.000Z',
}
const noBill = {
  message: 'BILL_NOT_AVAILABLE',
  errors: { customer_id: ['has no bill to pay now (Tagihan belum tersedia): it is paid already, or not issued yet'] },
}
const notPostpaid = { message: 'VALIDATION_ERROR', errors: { item_id: ['is not a postpaid item: buy it through POST /api/v1/trx'] } }

/** OpenAPI metadata of the postpaid bill routes (each carried by its route’s schema). */
export const BILL_DOCS = operations({
  inquireBill: {
    description:
      'Asks the provider for a customer’s bill of a postpaid item (`postpaid: true` in the catalog: PLN postpaid, BPJS, PDAM, phone bills) and keeps it for you for 15 minutes. `amount` is what paying it will take from your balance: the bills, their late fees (`penalty`) and the item’s price per bill as admin fee. Nothing is charged. Pay it with `POST /api/v1/trx/tagihan` and its `inquiry_id`. A bill the provider charges the store more for than this item may take (its admin fee would not cover the provider’s price and the store’s margin) is 503 `PRODUCT_TEMPORARILY_UNAVAILABLE`: there is nothing to pay; try later or another item.',
    returns: 'The bill, itemised by period, with its `inquiry_id` and `expires_at`',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND', 'BILL_NOT_AVAILABLE', 'PRODUCT_TEMPORARILY_UNAVAILABLE'],
    request: { item_id: 12, customer_id: '530000000001' },
    response: { message: 'OK', data: inquiry },
    errorExamples: {
      BILL_NOT_AVAILABLE: noBill,
      VALIDATION_ERROR: {
        message: 'VALIDATION_ERROR',
        errors: { customer_id: ['is not a customer number this provider knows (Nomor Tujuan Salah): check it'] },
      },
    },
  },
  payBill: {
    description:
      'Pays a postpaid bill with the balance, as one purchase: the `ref_id` rules of `POST /api/v1/trx` (a reused one answers `REF_ID_ALREADY_EXIST` with the existing transaction, so a retry never pays twice), one debit with its ledger entry, `order.paid`, then the payment goes to the provider. With `inquiry_id` it pays that inquiry (yours, unpaid, within its 15 minutes, for this `item_id` and `customer_id`); without, it asks for the bill now. `max_amount` refuses a bill that comes to more (`BILL_AMOUNT_CHANGED`, with the new amount and its `inquiry_id` in `data`); `max_price` is another name for it (as on a cart line), and with both the lower applies. The answer is the transaction, `paid`; it turns `completed` with the payment reference as `sn` in `h2h_results`, or `canceled` and refunded in full if the provider refuses the payment. `GET /api/v1/trx/{ref}` shows the line’s `customer_name`, `period` and `bill`.',
    returns: 'The transaction, `paid`, as `POST /api/v1/trx` answers',
    codes: [
      'INVALID_JSON',
      'BAD_REQUEST',
      'VALIDATION_ERROR',
      'BALANCE_IS_INSUFFICIENT',
      'ITEM_NOT_FOUND',
      'INQUIRY_NOT_FOUND',
      'REF_ID_ALREADY_EXIST',
      'BILL_NOT_AVAILABLE',
      'BILL_AMOUNT_CHANGED',
      'INQUIRY_EXPIRED',
      'INQUIRY_ALREADY_USED',
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    ],
    request: { ref_id: 'shop-bill-77', item_id: 12, customer_id: '530000000001', inquiry_id: 318, max_amount: 152500 },
    response: { message: 'OK', data: paid },
    errorExamples: {
      BILL_NOT_AVAILABLE: noBill,
      VALIDATION_ERROR: notPostpaid,
      BILL_AMOUNT_CHANGED: {
        message: 'BILL_AMOUNT_CHANGED',
        errors: { max_amount: ['the bill now comes to 153500, more than 152500: pay inquiry 319 if that suits'] },
        data: { inquiry_id: 319, amount: 153500, max_amount: 152500, expires_at: '2026-11-22T10:31:00.000Z' },
      },
      INQUIRY_EXPIRED: {
        message: 'INQUIRY_EXPIRED',
        errors: { inquiry_id: ['expired at 2026-11-22T10:30:00.000Z: ask a new inquiry (the bill may have changed)'] },
      },
      INQUIRY_ALREADY_USED: {
        message: 'INQUIRY_ALREADY_USED',
        errors: { inquiry_id: ['this bill was paid by your transaction shop-bill-77: a new bill needs a new inquiry'] },
        data: { inquiry_id: 318, ref_id: 'shop-bill-77' },
      },
      INQUIRY_NOT_FOUND: {
        message: 'INQUIRY_NOT_FOUND',
        errors: { inquiry_id: ['no inquiry of yours has this id: ask one with POST /api/v1/trx/tagihan/inquiry'] },
      },
    },
  },
})
