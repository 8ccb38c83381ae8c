import { operations } from '../../http/operation.js'

const sync = {
  id: 41,
  provider: 'digiflazz',
  status: 'ok',
  started_at: '2026-11-27T10:00:00.000Z',
  finished_at: '2026-11-27T10:00:02.310Z',
  listed: 1204,
  skipped: 0,
  changes: { new: 3, price: 17, status: 2, gone: 1, back: 0, held: 1 },
  error: null,
}

/** OpenAPI metadata of the supplier price-list routes (each carried by its route’s schema). */
export const SUPPLIER_DOCS = operations({
  adminSyncSupplier: {
    description:
      'Reads the provider’s price list (Digiflazz `/price-list`, prepaid and pasca; an SMM panel’s `action=services`) and applies it whole, logging what changed since the last read. Within `SUPPLIER_SYNC_MINUTES` of the last good sync it answers that sync (`cached: true`) without asking the provider; `force=true` asks anyway. An entry whose price is not a positive price within the money bounds, or that moved more than `SUPPLIER_PRICE_JUMP_PERCENT` from the last applied price, is held instead of applied (`changes.held`; see `GET /providers/{code}/held`): the rest of the list applies, and one entry never fails a sync. A provider that does not answer or answers an error changes nothing: 503 with the reason under `errors.provider`, the failed sync is recorded (its id in the message).',
    returns: 'The sync: what was read and what changed',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { ...sync, cached: false } },
    errorExamples: {
      SERVICE_UNAVAILABLE: {
        message: 'SERVICE_UNAVAILABLE',
        errors: {
          provider: [
            'sync 42: the price list could not be read (prepaid list: provider answered HTTP 400: rc 83 Limitasi pengecekan pricelist); the previous list is kept',
          ],
        },
      },
      INVALID_STATE: {
        message: 'INVALID_STATE',
        errors: { provider: ['a sync of this provider is running now; ask again when it has finished'] },
      },
    },
  },
  adminListSupplierProducts: {
    description:
      'The provider’s products as its list last showed them (gone ones included, with `gone_at`), by category, brand and price; filter by `status`, `category`, `brand` or `search` (name or code).',
    returns: 'A page of supplier products',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND'],
    response: {
      message: 'OK',
      data: [
        {
          code: 'ml86',
          name: 'MOBILE LEGENDS 86 Diamonds',
          category: 'Games',
          brand: 'MOBILE LEGENDS',
          type: 'Umum',
          price: 19500,
          min_quantity: null,
          max_quantity: null,
          active: true,
          unlimited_stock: true,
          stock: null,
          cut_off_start: '23:45',
          cut_off_end: '00:15',
          postpaid: false,
          first_seen_at: '2026-11-20T08:00:01.000Z',
          last_seen_at: '2026-11-27T10:00:02.310Z',
          gone_at: null,
        },
      ],
      meta: { page: 1, per_page: 100, total: 1, last_page: 1 },
    },
  },
  adminListSupplierChanges: {
    description:
      'What the syncs found changed in the provider’s list, newest first: `new`, `price` (old → new), `status` (on ↔ off), `gone`, `back`.',
    returns: 'A page of changes',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND'],
    response: {
      message: 'OK',
      data: [{ id: 907, code: 'ml86', kind: 'price', old: '19500', new: '19750', at: '2026-11-27T10:00:02.310Z', sync_id: 41 }],
      meta: { page: 1, per_page: 100, total: 1, last_page: 1 },
    },
  },
})
