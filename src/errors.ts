/** Every error code the service answers, with its HTTP status (docs/design.md §4 and the spec). */
export const ERROR_CODES = {
  INVALID_API_KEY: 401,
  INVALID_IP: 401,
  UNAUTHORIZED: 401,
  THE_ACCOUNT_HAS_BEEN_SUSPENDED: 403,
  INVALID_JSON: 400,
  // A request the HTTP parser refuses for its method, headers or framing (not its JSON).
  BAD_REQUEST: 400,
  BALANCE_IS_INSUFFICIENT: 400,
  SMM_ORDER_REQUIRES_JSON_NOTE: 400,
  VALIDATION_ERROR: 422,
  REQUIRED_FIELD_MISSING: 422,
  REF_ID_ALREADY_EXIST: 422,
  MINIMUM_ORDER_NOT_MET: 422,
  INSUFFICIENT_STOCK: 422,
  // A purchase or sandbox order over the stock (locks answer INSUFFICIENT_STOCK): the public docs' code.
  OUT_OF_STOCK: 422,
  LOCK_NOT_REQUIRED: 422,
  LOCK_EXPIRED: 422,
  LOCK_MISMATCH: 422,
  LOCK_ALREADY_USED: 422,
  LOCK_RELEASED: 422,
  VALIDATION_NOT_AVAILABLE: 422,
  ITEM_NOT_FOUND: 404,
  TRX_NOT_FOUND: 404,
  LOCK_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  PROVIDER_NOT_FOUND: 404,
  LINE_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  // A known path with another method; the Allow header lists the ones it takes.
  METHOD_NOT_ALLOWED: 405,
  // The operator acted on something in a state that does not allow it (a sent line, a closed order).
  INVALID_STATE: 409,
  DUPLICATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MAX_ACTIVE_LOCKS_REACHED: 429,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  PRODUCT_TEMPORARILY_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  // Top-ups (docs/design.md §7): an unknown reference or channel; a payment link past its expiry; a gateway callback not signed by it.
  TOPUP_NOT_FOUND: 404,
  CHANNEL_NOT_FOUND: 404,
  TOPUP_EXPIRED: 409,
  INVALID_SIGNATURE: 401,
  // docs/design.md §7b: every unique code of a bank-transfer amount is reserved now; `Retry-After` says when one frees.
  TRY_AGAIN_LATER: 503,
  DISPATCH_NOT_FOUND: 404,
  // The operator console and the reseller dashboard: a form without its CSRF token changes nothing.
  INVALID_CSRF_TOKEN: 403,
  // Categories and products managed on their own (the operator API's catalog routes).
  CATEGORY_NOT_FOUND: 404,
  PRODUCT_NOT_FOUND: 404,
  // The reseller dashboard (docs/design.md §13): a user of another account or none; an invite link used or lapsed; a page for
  // the owner only.
  USER_NOT_FOUND: 404,
  INVITE_NOT_FOUND: 404,
  OWNER_ONLY: 403,
  // Postpaid bills (docs/design.md §5c): no bill to pay now; the bill came to more than max_amount; an inquiry
  // of another account or none, one past its 15 minutes, one already paid.
  BILL_NOT_AVAILABLE: 422,
  BILL_AMOUNT_CHANGED: 422,
  INQUIRY_NOT_FOUND: 404,
  INQUIRY_EXPIRED: 422,
  INQUIRY_ALREADY_USED: 422,
  // docs/design.md §11c: a cart line's unit price is above the max_price sent; `data` is {item_id, price}.
  PRICE_ABOVE_MAX: 422,
  // Held supplier prices (docs/design.md §11c): no such hold of that provider; one approved, rejected or
  // moved past by a later list already, or a price that can never be applied.
  HELD_PRICE_NOT_FOUND: 404,
  HELD_PRICE_DECIDED: 422,
  // The operator team (docs/design.md §11d): the caller's role may not call the route; an operator or token of none.
  FORBIDDEN_FOR_ROLE: 403,
  OPERATOR_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  // Price levels (docs/design.md §5d): no level with that code.
  PRICE_LEVEL_NOT_FOUND: 404,
  // Complaints (docs/design.md §14): one open per line; a line that cannot take one (canceled, refunded, past
  // COMPLAINT_DAYS) or a complaint action its state refuses; a complaint of another account or none.
  COMPLAINT_ALREADY_OPEN: 422,
  COMPLAINT_NOT_ALLOWED: 422,
  COMPLAINT_NOT_FOUND: 404,
} as const

export type ErrorCode = keyof typeof ERROR_CODES
export type FieldErrors = Record<string, string[]>

export class AppError extends Error {
  readonly status: number
  readonly fieldErrors?: FieldErrors
  readonly data?: unknown
  readonly headers?: Record<string, string>

  constructor(
    readonly code: ErrorCode,
    options: { fieldErrors?: FieldErrors; data?: unknown; headers?: Record<string, string>; detail?: string } = {},
  ) {
    super(options.detail ?? code)
    this.status = ERROR_CODES[code]
    this.fieldErrors = options.fieldErrors
    this.data = options.data
    this.headers = options.headers
  }
}

/** REF_ID_ALREADY_EXIST (docs/design.md §4): the docs' `errors` on ref_id, and the existing transaction in `data`. */
export function refIdAlreadyExists(data: unknown): AppError {
  return new AppError('REF_ID_ALREADY_EXIST', { fieldErrors: { ref_id: ['The ref id has already been used.'] }, data })
}

/** A 422 VALIDATION_ERROR naming one field. */
export function invalidField(path: string, sentence: string): AppError {
  return new AppError('VALIDATION_ERROR', { fieldErrors: { [path]: [sentence] } })
}
