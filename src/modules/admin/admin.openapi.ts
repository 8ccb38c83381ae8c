import type { OperationDocs } from '../../http/openapi-docs.js'
import { account, adjustment, apiKey, failingDelivery, h2hItem, item, listMeta, provider, smmProvider } from './admin.examples.js'

/** OpenAPI metadata of the operator API (`Authorization: Bearer <ADMIN_TOKEN>`), merged by src/http/openapi-docs.ts. */
export const ADMIN_DOCS: OperationDocs = {
  'POST /api/admin/v1/resellers': {
    operationId: 'adminCreateReseller',
    description: 'Creates a reseller account and its first API key; the key is shown only in this answer.',
    request: { name: 'Toko Maju', email: 'ops@tokomaju.example' },
    response: { message: 'OK', data: { ...account, balance: 0, api_key: apiKey } },
  },
  'GET /api/admin/v1/resellers': {
    operationId: 'adminListResellers',
    description: 'Reseller accounts, paged; `search` in names and emails.',
    response: { message: 'OK', data: [account], meta: listMeta(1) },
  },
  'GET /api/admin/v1/resellers/{id}/audit': {
    operationId: 'adminAuditReseller',
    description:
      'Checks one account’s books in one snapshot, as an operator would by hand: each check says what it expected and what it ' +
      'found. A failing check is a finding to investigate (the database constraints and the purchase path are built so that none ' +
      'ever fails); `breaks` names the first ledger entries that do not follow from the one before.',
    codes: ['ACCOUNT_NOT_FOUND'],
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
  },
  'GET /api/admin/v1/resellers/{id}/mutations': {
    operationId: 'adminListResellerMutations',
    description: 'One account’s ledger, newest first, with the same filters and paging as the reseller’s own `GET /balance/mutations`.',
    codes: ['ACCOUNT_NOT_FOUND'],
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
  'GET /api/admin/v1/overview': {
    operationId: 'adminOverview',
    description:
      'The store at a glance: sales today and this month (in LEADERBOARD_TZ), balances held by resellers, and the queues waiting for an operator (manual lines to send, upstream requests pending or in review, failing webhook deliveries, pending top-ups, top-ups in review, items low on stock).',
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
  'GET /api/admin/v1/items': {
    operationId: 'adminListItems',
    description: 'Every item, on or off, with the stock for sale now; `search` in item, product and SKU, `category` by id or name.',
    response: { message: 'OK', data: [item, h2hItem], meta: listMeta(2) },
  },
  'GET /api/admin/v1/resellers/{id}': {
    operationId: 'adminGetReseller',
    description: 'One reseller account.',
    codes: ['ACCOUNT_NOT_FOUND'],
    response: { message: 'OK', data: account },
  },
  'PATCH /api/admin/v1/resellers/{id}': {
    operationId: 'adminUpdateReseller',
    description:
      'Suspends or reactivates an account, sets its cap of active locks or its IP allow-list; the change applies to its next request in every process.',
    codes: ['ACCOUNT_NOT_FOUND'],
    request: { status: 'suspended' },
    response: { message: 'OK', data: { ...account, status: 'suspended', updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  'POST /api/admin/v1/resellers/{id}/api-keys': {
    operationId: 'adminRotateApiKey',
    description: 'A new API key for the account, shown once; the old one stops working at once.',
    codes: ['ACCOUNT_NOT_FOUND'],
    response: { message: 'OK', data: { id: account.id, api_key: apiKey } },
  },
  'POST /api/admin/v1/resellers/{id}/balance': {
    operationId: 'adminAdjustBalance',
    description:
      'Credits or debits a balance through the ledger; the `reference` makes it idempotent (the same reference again changes nothing).',
    codes: ['ACCOUNT_NOT_FOUND', 'BALANCE_IS_INSUFFICIENT', 'DUPLICATE'],
    request: { amount: 1000000, reason: 'bank transfer 22 Nov', reference: 'manual-2026-11-22-1' },
    response: { message: 'OK', data: adjustment },
  },
  'POST /api/admin/v1/items': {
    operationId: 'adminCreateItem',
    description: 'Creates an item (a variant) under a product, creating the category and product by name when new.',
    codes: ['PROVIDER_NOT_FOUND', 'DUPLICATE'],
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
  'GET /api/admin/v1/items/{id}': {
    operationId: 'adminGetItem',
    description: 'One item, active or not, with its stock.',
    codes: ['ITEM_NOT_FOUND'],
    response: { message: 'OK', data: item },
  },
  'PATCH /api/admin/v1/items/{id}': {
    operationId: 'adminUpdateItem',
    description: 'Changes an item’s price, stock, activity or provider mapping; only the fields sent change.',
    codes: ['ITEM_NOT_FOUND', 'PROVIDER_NOT_FOUND', 'MINIMUM_ORDER_NOT_MET'],
    request: { price: 26000, active: true },
    response: { message: 'OK', data: { ...item, price: 26000, updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  'POST /api/admin/v1/items/{id}/licenses': {
    operationId: 'adminAddLicenses',
    description: 'Adds licenses to an auto item’s stock (stored encrypted); duplicates are skipped and counted.',
    codes: ['ITEM_NOT_FOUND'],
    request: { licenses: ['ABCD-EFGH-IJKL', 'MNOP-QRST-UVWX'] },
    response: { message: 'OK', data: { item_id: item.id, added: 2, duplicates: 0 } },
  },
  'POST /api/admin/v1/providers': {
    operationId: 'adminCreateProvider',
    description: 'Registers an upstream provider (Digiflazz h2h or an SMM panel); its key is stored encrypted.',
    codes: ['DUPLICATE'],
    request: {
      code: 'digiflazz',
      kind: 'digiflazz',
      base_url: 'https://api.digiflazz.com/v1',
      username: 'tokomaju',
      api_key: 'your-digiflazz-production-key',
    },
    response: { message: 'OK', data: provider },
  },
  'GET /api/admin/v1/providers': {
    operationId: 'adminListProviders',
    description: 'Every provider, never its key.',
    response: { message: 'OK', data: [provider, smmProvider] },
  },
  'PATCH /api/admin/v1/providers/{code}': {
    operationId: 'adminUpdateProvider',
    description: 'Changes a provider; `active: false` makes its items answer PRODUCT_TEMPORARILY_UNAVAILABLE and stops its dispatches.',
    codes: ['PROVIDER_NOT_FOUND'],
    request: { active: false },
    response: { message: 'OK', data: { ...provider, active: false, updated_at: '2026-11-22T11:00:00.000Z' } },
  },
  'GET /api/admin/v1/resellers/{id}/webhook': {
    operationId: 'adminGetWebhook',
    description: 'An account’s webhook settings.',
    codes: ['ACCOUNT_NOT_FOUND'],
    response: {
      message: 'OK',
      data: {
        callback_url: 'https://tokomaju.example/hooks/reseller',
        webhook_enabled: true,
        has_secret: true,
        secret_created_at: '2026-11-20T08:05:00.000Z',
      },
    },
  },
  'GET /api/admin/v1/resellers/{id}/webhook-deliveries': {
    operationId: 'adminListWebhookDeliveries',
    description: 'An account’s webhook deliveries, newest first, with every attempt.',
    codes: ['ACCOUNT_NOT_FOUND'],
    response: { message: 'OK', data: [failingDelivery], meta: { ...listMeta(1), per_page: 20 } },
  },
  'POST /api/admin/v1/resellers/{id}/webhook-deliveries/{delivery}/retry': {
    operationId: 'adminRetryWebhookDelivery',
    description: 'Redelivers one of the account’s deliveries with the same `webhook-id`.',
    codes: ['ACCOUNT_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
    response: {
      message: 'OK',
      // Due now, its attempts kept; the receiver sees the same webhook-id again.
      data: { ...failingDelivery, status: 'pending', next_attempt_at: '2026-11-22T10:16:00.000Z' },
    },
  },
}
