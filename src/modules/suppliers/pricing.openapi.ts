import { operations } from '../../http/operation.js'

const rule = {
  id: 3,
  scope: 'brand',
  provider: 'digiflazz',
  category: null,
  brand: 'MOBILE LEGENDS',
  item_id: null,
  percent: 4,
  flat: 0,
  round_to: 100,
  min_margin: 300,
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:05:00.000Z',
}

/** OpenAPI metadata of the import and pricing rule routes (each carried by its route’s schema). */
export const PRICING_DOCS = operations({
  adminImportSupplierProducts: {
    description:
      'Creates an item for each chosen product of the provider’s last synced list that no item is bought from yet (gone ones are not importable): products match every selector given (`categories`, `brands`, `types`: any case; `codes`: exact). Each item is named from the list (product = the supplier’s brand, item = its product name, category = its category), bought from that product (h2h for Digiflazz, smm for a panel, whose min and max become the item’s; a postpaid product becomes a postpaid bill item), with `cost` = the supplier’s price (a panel’s rate / 1,000 per unit) and the price its pricing rule gives; with no rule the price is the cost rounded up. Everything happens in one transaction; importing again creates nothing new (those products are under `skipped`, reason `linked`). No item is created from a product whose listed price is held (`held`, see `GET /providers/{code}/held`) or priced 0 or out of the money bounds (`invalid_price`); `skipped_count` counts each reason. Any size of list imports (rows are written in chunks within PostgreSQL’s parameter limit). `dry_run: true` answers the same without creating anything.',
    returns: 'The items created, the products skipped, and codes the list does not have',
    codes: ['VALIDATION_ERROR', 'INVALID_JSON', 'BAD_REQUEST', 'PROVIDER_NOT_FOUND'],
    request: { brands: ['MOBILE LEGENDS'], codes: ['pln'] },
    response: {
      message: 'OK',
      data: {
        provider: 'digiflazz',
        dry_run: false,
        created: [
          {
            id: 41,
            sku: 'DIGIFLAZZ-ML86',
            code: 'ml86',
            name: 'MOBILE LEGENDS 86 Diamonds',
            category: 'Games',
            cost: 19500,
            price: 20300,
            rule_id: 3,
          },
          {
            id: 42,
            sku: 'DIGIFLAZZ-PLN',
            code: 'pln',
            name: 'PLN Pascabayar',
            category: 'Pascabayar',
            cost: 2500,
            price: 2500,
            rule_id: null,
          },
        ],
        skipped: [
          { code: 'ml172', name: 'MOBILE LEGENDS 172 Diamonds', item_id: 17, reason: 'linked' },
          { code: 'ff140', name: 'FREE FIRE 140 Diamonds', item_id: null, reason: 'held' },
        ],
        skipped_count: { linked: 1, held: 1, invalid_price: 0 },
        not_found: [],
      },
    },
    errorExamples: {
      VALIDATION_ERROR: {
        message: 'VALIDATION_ERROR',
        errors: { codes: ['choose products: give categories, brands, types or codes (at least one)'] },
      },
    },
  },
  adminListPricingRules: {
    description:
      'Every pricing rule (docs/design.md §11b), by provider and from the broadest scope to the item. An item’s price is `round_up(cost × (1 + percent/100) + flat, round_to)`, never below `cost + min_margin`, by the most specific rule matching the supplier product of its first serving source: item > brand (with its category, then without) > category > provider.',
    returns: 'The rules',
    response: { message: 'OK', data: [rule] },
  },
  adminPutPricingRule: {
    description:
      'Sets the rule with this scope key (`provider`: provider; `category`: provider + category; `brand`: provider + brand, optionally narrowed by category; `item`: item_id; names compared in any case), creating it when new, and reprices the items it may now govern in the same transaction (never the price of a locked item; its cost still moves; their `updated_at` moves, so resellers’ delta sync sees them). `repriced` counts the items written.',
    returns: 'The rule, whether it is new, and how many items were repriced',
    codes: ['VALIDATION_ERROR', 'INVALID_JSON', 'BAD_REQUEST'],
    request: { scope: 'brand', provider: 'digiflazz', brand: 'MOBILE LEGENDS', percent: 4, round_to: 100, min_margin: 300 },
    response: { message: 'OK', data: { rule, created: true, repriced: 12 } },
    errorExamples: {
      VALIDATION_ERROR: { message: 'VALIDATION_ERROR', errors: { brand: ['is required for a brand rule'] } },
    },
  },
  adminDeletePricingRule: {
    description:
      'Deletes a rule; the items it governed fall to the next most specific rule (or keep their price, raised to their cost where it passes it), repriced in the same transaction.',
    returns: 'The deleted rule and how many items were repriced',
    codes: ['VALIDATION_ERROR', 'NOT_FOUND'],
    response: { message: 'OK', data: { rule, repriced: 12 } },
  },
})
