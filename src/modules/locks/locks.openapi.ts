import { operations } from '../../http/operation.js'

const lock = {
  lock_token: 'LCK-7sQ2m9XaK4pT8vB1',
  item_id: 7,
  quantity: 2,
  locked_at: '2026-11-22T10:15:00.000Z',
  expires_at: '2026-11-22T10:25:00.000Z',
}

/** OpenAPI metadata of the stock-lock routes (each carried by its route’s schema). */
export const LOCK_DOCS = operations({
  createLock: {
    returns: 'The lock',
    codes: [
      'INVALID_JSON',
      'BAD_REQUEST',
      'VALIDATION_ERROR',
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
  listLocks: {
    description: 'Your active locks with the seconds each has left.',
    returns: 'Your active locks',
    response: { message: 'OK', data: [{ ...lock, status: 'active', remaining_seconds: 412 }] },
  },
  releaseLock: {
    description:
      'Releases a lock of yours: its stock is available again at once. A lock that is used, expired or released already is a 422 naming which.',
    returns: 'The released lock',
    codes: ['VALIDATION_ERROR', 'LOCK_NOT_FOUND', 'LOCK_ALREADY_USED', 'LOCK_EXPIRED', 'LOCK_RELEASED'],
    response: { message: 'OK', data: { lock_token: lock.lock_token, status: 'released', released_at: '2026-11-22T10:17:00.000Z' } },
  },
})
