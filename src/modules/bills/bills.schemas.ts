import { Type, type Static } from '@sinclair/typebox'
import { IntegerOrDigits, Nullable, NumberAsText, Ok, RowIdOrDigits, Timestamp } from '../../http/schemas.js'
import { RefId } from '../orders/index.js'

// A customer number as the provider knows it (PLN's ID pelanggan, a BPJS or PDAM number): a line's target.
// Sent as a number too (a meter number typed as one): taken as its digits.
const CustomerId = Type.Union([
  Type.String({ minLength: 1, maxLength: 50, description: 'the customer number on the bill (ID pelanggan)' }),
  NumberAsText,
])

export const BillInquiryBody = Type.Object({
  item_id: RowIdOrDigits({ description: 'a postpaid item (`postpaid: true` in the catalog)' }),
  customer_id: CustomerId,
})
export type BillInquiryBody = Static<typeof BillInquiryBody>

export const BillDetail = Type.Object({
  period: Type.String({ description: 'the period billed (YYYYMM at most providers)' }),
  bill_amount: Type.Integer({ description: 'the bill itself' }),
  admin: Type.Integer({ description: 'our admin fee for this period: the item’s price' }),
  penalty: Type.Integer({ description: 'the late fee' }),
})

export const BillInquiryData = Type.Object({
  inquiry_id: Type.Integer({ description: 'pay it with POST /api/v1/trx/tagihan within 15 minutes' }),
  item_id: Type.Integer(),
  customer_id: Type.String(),
  customer_name: Type.String(),
  period: Type.String({ description: 'the periods billed, comma-separated' }),
  bill_count: Type.Integer({ description: 'how many periods (bills) are due' }),
  bill_amount: Type.Integer({ description: 'the bills together' }),
  admin_fee: Type.Integer({ description: 'the item’s price per bill, times bill_count' }),
  penalty: Type.Integer({ description: 'the late fees together' }),
  amount: Type.Integer({ description: 'what your balance is charged: bill_amount + penalty + admin_fee' }),
  expires_at: Timestamp,
  details: Type.Array(BillDetail),
})
export type BillInquiryData = Static<typeof BillInquiryData>
export const BillInquiry = Ok(BillInquiryData)

export const BillPaymentBody = Type.Object({
  ref_id: RefId,
  item_id: RowIdOrDigits(),
  customer_id: CustomerId,
  inquiry_id: Type.Optional(Nullable(RowIdOrDigits({ description: 'the inquiry to pay; without one a new inquiry is made now' }))),
  max_amount: Type.Optional(
    Nullable(IntegerOrDigits({ minimum: 0, maximum: 1e15, description: 'refuse (BILL_AMOUNT_CHANGED) if the bill comes to more' })),
  ),
  max_price: Type.Optional(
    Nullable(
      IntegerOrDigits({
        minimum: 0,
        maximum: 1e15,
        description: 'another name for max_amount (as Digiflazz buyers send it); with both, the lower applies',
      }),
    ),
  ),
})
export type BillPaymentBody = Static<typeof BillPaymentBody>
