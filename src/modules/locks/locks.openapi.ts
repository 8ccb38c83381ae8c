import type { OperationDocs } from '../../http/openapi-docs.js'

const lock = {
  lock_token: 'LCK-7sQ2m9XaK4pT8vB1',
  item_id: 7,
  quantity: 2,
  locked_at: '2026-11-22T10:15:00.000Z',
  expires_at: '2026-11-22T10:25:00.000Z',
}

/** OpenAPI metadata of the stock-lock routes (merged by src/http/openapi-docs.ts). */
export const LOCK_DOCS: OperationDocs = {
  'POST /api/v1/item/lock': {
    operationId: 'createLock',
    description:
      'Reserves stock of one item for `lock_duration` seconds (60–600, default 600). Buy it with `POST /api/v1/trx` and `lock_token`, with exactly one cart line of the same item and quantity. Checks in order: item, unlimited stock (no lock needed), minimum order, your cap of active locks, stock, balance. A lock is a promise to buy: your active locks, this one included, may be worth (current price × quantity) at most your balance, which is checked, not reserved.',
    returns: 'The lock',
    codes: [
      'ITEM_NOT_FOUND',
      'LOCK_NOT_REQUIRED',
      'MINIMUM_ORDER_NOT_MET',
      'INSUFFICIENT_STOCK',
      'MAX_ACTIVE_LOCKS_REACHED',
      'BALANCE_IS_INSUFFICIENT',
      'PRODUCT_TEMPORARILY_UNAVAILABLE',
    ],
    request: { item_id: 7, quantity: 2, lock_duration: 600 },
    response: { success: true, data: lock },
    errorExamples: {
      MINIMUM_ORDER_NOT_MET: { message: 'MINIMUM_ORDER_NOT_MET', errors: { quantity: ['must be at least 2 (the minimum order)'] } },
      BALANCE_IS_INSUFFICIENT: {
        message: 'BALANCE_IS_INSUFFICIENT',
        errors: { balance: ['is 82, less than 855000, the value of your active locks with this one: top up or release a lock'] },
        data: { balance: 82, required: 855000 },
      },
    },
  },
  'GET /api/v1/item/lock': {
    operationId: 'listLocks',
    description: 'Your active locks with the seconds each has left.',
    returns: 'Your active locks',
    response: { message: 'OK', data: [{ ...lock, status: 'active', remaining_seconds: 412 }] },
  },
  'DELETE /api/v1/item/lock/{lock_token}': {
    operationId: 'releaseLock',
    description:
      'Releases a lock of yours: its stock is available again at once. A lock that is used, expired or released already is a 422 naming which.',
    returns: 'The released lock',
    codes: ['LOCK_NOT_FOUND', 'LOCK_ALREADY_USED', 'LOCK_EXPIRED', 'LOCK_RELEASED'],
    response: { message: 'OK', data: { lock_token: lock.lock_token, status: 'released', released_at: '2026-11-22T10:17:00.000Z' } },
  },
}
