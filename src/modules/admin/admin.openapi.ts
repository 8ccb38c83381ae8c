import { operations } from '../../http/operation.js'
import { account, adjustment, apiKey, h2hItem, item, listMeta, provider, smmProvider } from './admin.examples.js'

/** OpenAPI metadata of the operator API (`Authorization: Bearer <ADMIN_TOKEN>`), each carried by its route’s schema. */
export const ADMIN_DOCS = operations({
  adminCreateReseller: {
    codes: ['VALIDATION_ERROR'],
    description: 'Creates a reseller account and its first API key; the key is shown only in this answer.',
    request: { name: 'Toko Maju', email: 'ops@tokomaju.example' },
    response: { message: 'OK', data: { ...account, balance: 0, api_key: apiKey } },
  },
  adminListResellers: {
    codes: ['VALIDATION_ERROR'],
    description: 'Reseller accounts, paged; `search` in names and emails.',
    response: { message: 'OK', data: [account], meta: listMeta(1) },
  },
  adminAuditReseller: {
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: {
        account_id: 7,
        consistent: true,
        balance: 2430000,
        ledger_balance: 2430000,
        entries: 413,
        checks: [
          {
            check: 'balance_equals_ledger',
            ok: true,
            expected: 2430000,
            actual: 2430000,
            description: 'the balance (actual) against credits less debits (expected)',
          },
          {
            check: 'ledger_chain',
            ok: true,
            expected: 0,
            actual: 0,
            description: 'entries that do not start from the balance the entry before left',
          },
        ],
        breaks: [],
      },
    },
    // An account too large to check within the time limit (3/4 of HTTP_CONNECTION_TIMEOUT_MS): how far it read.
    errorExamples: {
      SERVICE_UNAVAILABLE: {
        message: 'SERVICE_UNAVAILABLE',
        data: { audit: 'unfinished', time_limit_ms: 45000, entries_read: 6000001, entries: 9000000, orders_read: 0, orders: 4500000 },
      },
    },
  },
  adminListResellerMutations: {
    description: 'One account’s ledger, newest first, with the same filters and paging as the reseller’s own `GET /balance/mutations`.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: [
        {
          id: 413,
          invoice: 'INV20261122M3T8W1QB',
          direction: 'debit',
          type: 'purchase',
          amount: 45000,
          balance_before: 2475000,
          balance_after: 2430000,
          description: 'Purchase INV20261122M3T8W1QB',
          created_at: '2026-11-22T10:20:00.000Z',
        },
        {
          id: 412,
          invoice: null,
          direction: 'credit',
          type: 'adjustment',
          amount: 1000000,
          balance_before: 1475000,
          balance_after: 2475000,
          description: 'bank transfer 22 Nov',
          created_at: '2026-11-22T10:15:00.000Z',
        },
      ],
      meta: { ...listMeta(2), per_page: 20, total_capped: false, next_cursor: null },
    },
  },
  adminOverview: {
    response: {
      message: 'OK',
      data: {
        time_zone: 'Asia/Jakarta',
        sales_today: { count: 38, amount: 1245000 },
        sales_month: { count: 912, amount: 31870500 },
        balances_held: 48210000,
        queues: {
          manual_lines: 2,
          upstream_pending: 3,
          upstream_review: 1,
          webhooks_failing: 4,
          topups_pending: 1,
          topups_review: 0,
          low_stock: 1,
        },
        webhooks_failing: [{ account_id: 12, name: 'Toko Maju', failing: 4 }],
        low_stock: [{ id: 31, name: 'Netflix 1 Month', product_name: 'Netflix Premium', available: 3 }],
      },
    },
  },
  adminListItems: {
    codes: ['VALIDATION_ERROR'],
    description: 'Every item, on or off, with the stock for sale now; `search` in item, product and SKU, `category` by id or name.',
    response: { message: 'OK', data: [item, h2hItem], meta: listMeta(2) },
  },
  adminGetReseller: {
    description: 'One reseller account.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: { message: 'OK', data: account },
  },
  adminUpdateReseller: {
    description:
      'Suspends or reactivates an account, sets its cap of active locks, its IP allow-list or its price level (`price_level`, a level code: GET /price-levels); the change applies to its next request in every process.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    request: { status: 'suspended' },
    response: { message: 'OK', data: { ...account, status: 'suspended', updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  adminRotateApiKey: {
    description: 'A new API key for the account, shown once; the old one stops working at once.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
    response: { message: 'OK', data: { id: account.id, api_key: apiKey } },
  },
  adminAdjustBalance: {
    description:
      'Credits or debits a balance through the ledger; the `reference` makes it idempotent (the same reference again changes nothing).',
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'BALANCE_IS_INSUFFICIENT', 'DUPLICATE'],
    request: { amount: 1000000, reason: 'bank transfer 22 Nov', reference: 'manual-2026-11-22-1' },
    response: { message: 'OK', data: adjustment },
  },
  adminCreateItem: {
    description: 'Creates an item (a variant) under a product, creating the category and product by name when new.',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND', 'DUPLICATE'],
    request: {
      category: 'Games',
      product_name: 'Mobile Legends Diamonds',
      name: '86 Diamonds',
      sku: 'ML86',
      price: 19800,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'digiflazz',
      provider_code: 'ml86',
      provider_meta: { validation: true, requires_zone_id: true },
    },
    response: { message: 'OK', data: h2hItem },
  },
  adminGetItem: {
    description: 'One item, active or not, with its stock.',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    response: { message: 'OK', data: item },
  },
  adminUpdateItem: {
    description:
      'Changes an item’s price, stock, activity or provider mapping; only the fields sent change. `price_locked: true` keeps the price through supplier cost changes and pricing rules (the `cost` still moves); a `price` sent for an item with a supplier `cost` locks it unless the same request says `price_locked: false`, and unlocking prices the item by its pricing rule at once. `allow_loss: true` lets the item sell below its source’s cost + the floor margin (a promotion; docs/design.md §11c); false (the default) keeps the floor.',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND', 'PROVIDER_NOT_FOUND', 'MINIMUM_ORDER_NOT_MET'],
    request: { price: 26000, active: true },
    response: { message: 'OK', data: { ...item, price: 26000, updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  adminAddLicenses: {
    description: 'Adds licenses to an auto item’s stock (stored encrypted); duplicates are skipped and counted.',
    codes: ['VALIDATION_ERROR', 'ITEM_NOT_FOUND'],
    request: { licenses: ['ABCD-EFGH-IJKL', 'MNOP-QRST-UVWX'] },
    response: { message: 'OK', data: { item_id: item.id, added: 2, duplicates: 0 } },
  },
  adminCreateProvider: {
    description: 'Registers an upstream provider (Digiflazz h2h or an SMM panel); its key is stored encrypted.',
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: {
      code: 'digiflazz',
      kind: 'digiflazz',
      base_url: 'https://api.digiflazz.com/v1',
      username: 'tokomaju',
      api_key: 'your-digiflazz-production-key',
    },
    response: { message: 'OK', data: provider },
  },
  adminListProviders: {
    description: 'Every provider, never its key.',
    response: { message: 'OK', data: [provider, smmProvider] },
  },
  adminUpdateProvider: {
    description:
      'Changes a provider; `active: false` makes its items answer PRODUCT_TEMPORARILY_UNAVAILABLE and stops its dispatches. `balance_alert_below` (Rupiah) and `balance_alert_hours` (hours left at the last 24 hours’ rate) set its low-balance alert (docs/design.md §11e); null switches one off.',
    codes: ['VALIDATION_ERROR', 'PROVIDER_NOT_FOUND'],
    request: { active: false },
    response: { message: 'OK', data: { ...provider, active: false, updated_at: '2026-11-22T11:00:00.000Z' } },
  },
})
