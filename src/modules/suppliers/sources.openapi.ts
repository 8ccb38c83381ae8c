import { operations } from '../../http/operation.js'

const sources = {
  item_id: 41,
  sources: [
    {
      provider: 'digiflazz',
      kind: 'digiflazz',
      code: 'ml86',
      priority: 1,
      product: {
        name: 'MOBILE LEGENDS 86 Diamonds',
        price: 19500,
        active: true,
        gone_at: null,
        cut_off_start: '23:45',
        cut_off_end: '00:15',
      },
      serving_now: true,
    },
    { provider: 'digiflazz-2', kind: 'digiflazz', code: 'ML86B', priority: 2, product: null, serving_now: true },
  ],
}

/** OpenAPI metadata of an item's supplier sources (each carried by its route’s schema). */
export const SOURCE_DOCS = operations({
  adminGetItemSources: {
    description:
      'The supplier products the item is bought from, by priority, each with the product as the last sync read it and whether it can serve now (provider on, product on and still listed, outside its cut-off window in WIB). A purchase goes to the first that serves; the item refuses purchases with `PRODUCT_TEMPORARILY_UNAVAILABLE` while none does. A request that fails definitely at one source moves to the next.',
    returns: 'The item’s sources',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    response: { message: 'OK', data: sources },
  },
  adminPutItemSources: {
    description:
      'Replaces the item’s whole list of sources (an empty list removes them: the item follows its own provider again). Each provider must exist and be of the item’s kind (an h2h item buys from Digiflazz providers, an smm item from SMM panels); priorities and (provider, code) pairs must differ. A code no sync has listed yet is accepted and counts as serving. The item’s `provider` and `provider_code` follow the first source, and its cost and price are recomputed from the first that serves (never a locked price). One transaction.',
    returns: 'The item’s sources now',
    codes: ['VALIDATION_ERROR', 'INVALID_JSON', 'BAD_REQUEST', 'ITEM_NOT_FOUND'],
    request: {
      sources: [
        { provider: 'digiflazz', code: 'ml86', priority: 1 },
        { provider: 'digiflazz-2', code: 'ML86B', priority: 2 },
      ],
    },
    response: { message: 'OK', data: sources },
    errorExamples: {
      VALIDATION_ERROR: {
        message: 'VALIDATION_ERROR',
        errors: {
          'sources.1.provider': ['is a smm_panel provider; a h2h item is bought from a digiflazz one'],
          'sources.2.priority': ['must differ from sources.0.priority'],
        },
      },
    },
  },
})
