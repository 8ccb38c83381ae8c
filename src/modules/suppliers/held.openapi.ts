import { operations } from '../../http/operation.js'

const held = {
  id: 912,
  code: 'ml86',
  name: 'MOBILE LEGENDS 86 Diamonds',
  last_applied: '19500',
  listed: '39000',
  reason: 'jump',
  status: 'pending',
  at: '2026-12-06T10:00:02.310Z',
  decided_at: null,
  sync_id: 44,
}
const decided = {
  HELD_PRICE_DECIDED: {
    message: 'HELD_PRICE_DECIDED',
    errors: { id: ['held price 912 was rejected already'] },
  },
}

/** OpenAPI metadata of the held-price routes (docs/design.md §11c), carried by each route’s schema. */
export const HELD_DOCS = operations({
  adminListHeldPrices: {
    description:
      'The prices a sync held instead of applying, newest first: a price that is not a positive price within the money bounds (`invalid`: Digiflazz’s whole Rupiah, a panel’s rate per 1,000 with at most 6 decimals, at most 10^15), or one that moved more than `SUPPLIER_PRICE_JUMP_PERCENT` from the last applied price (`jump`). The product keeps its last applied price (a new product is not listed at all) until the hold is approved. `status=pending` lists those waiting for a decision. The change log shows them too (`GET /providers/{code}/changes?kind=held`).',
    returns: 'A page of held prices',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND'],
    response: { message: 'OK', data: [held], meta: { page: 1, per_page: 100, total: 1, last_page: 1 } },
  },
  adminApproveHeldPrice: {
    description:
      'Applies a pending held price now: the product takes it and the items bought from it are repriced by their rules, as a sync’s price change does (logged as a `price` change). A price out of the money bounds can never be applied: reject it. 422 `HELD_PRICE_DECIDED` for a hold approved, rejected or replaced by a later list already.',
    returns: 'The decision and how many items were repriced',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'HELD_PRICE_NOT_FOUND', 'HELD_PRICE_DECIDED'],
    response: { message: 'OK', data: { id: 912, code: 'ml86', decision: 'approved', repriced: 2 } },
    errorExamples: decided,
  },
  adminRejectHeldPrice: {
    description:
      'Rejects a pending held price: the product keeps its last applied price, and later lists showing the same price are ignored (not held again) until the list changes that price.',
    returns: 'The decision',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'HELD_PRICE_NOT_FOUND', 'HELD_PRICE_DECIDED'],
    response: { message: 'OK', data: { id: 912, code: 'ml86', decision: 'rejected', repriced: 0 } },
    errorExamples: decided,
  },
})
