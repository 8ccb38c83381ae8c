import type { OperationDocs } from '../../http/openapi-docs.js'

/** OpenAPI metadata of the operator API (`Authorization: Bearer <ADMIN_TOKEN>`), merged by src/http/openapi-docs.ts. */
export const ADMIN_DOCS: OperationDocs = {
  'POST /api/admin/v1/resellers': {
    operationId: 'adminCreateReseller',
    description: 'Creates a reseller account and its first API key; the key is shown only in this answer.',
    request: { name: 'Toko Maju', email: 'ops@tokomaju.example' },
  },
  'GET /api/admin/v1/resellers': {
    operationId: 'adminListResellers',
    description: 'Reseller accounts, paged; `search` in names and emails.',
  },
  'GET /api/admin/v1/resellers/{id}/mutations': {
    operationId: 'adminListResellerMutations',
    description: 'One account’s ledger, newest first, with the same filters and paging as the reseller’s own `GET /balance/mutations`.',
    codes: ['ACCOUNT_NOT_FOUND'],
  },
  'GET /api/admin/v1/overview': {
    operationId: 'adminOverview',
    description:
      'The store at a glance: sales today and this month (in LEADERBOARD_TZ), balances held by resellers, and the queues waiting for an operator (manual lines to send, upstream requests pending or in review, failing webhook deliveries, pending top-ups, items low on stock).',
  },
  'GET /api/admin/v1/items': {
    operationId: 'adminListItems',
    description: 'Every item, on or off, with the stock for sale now; `search` in item, product and SKU, `category` by id or name.',
  },
  'GET /api/admin/v1/resellers/{id}': {
    operationId: 'adminGetReseller',
    description: 'One reseller account.',
    codes: ['ACCOUNT_NOT_FOUND'],
  },
  'PATCH /api/admin/v1/resellers/{id}': {
    operationId: 'adminUpdateReseller',
    description:
      'Suspends or reactivates an account, sets its cap of active locks or its IP allow-list; the change applies to its next request in every process.',
    codes: ['ACCOUNT_NOT_FOUND'],
    request: { status: 'suspended' },
  },
  'POST /api/admin/v1/resellers/{id}/api-keys': {
    operationId: 'adminRotateApiKey',
    description: 'A new API key for the account, shown once; the old one stops working at once.',
    codes: ['ACCOUNT_NOT_FOUND'],
  },
  'POST /api/admin/v1/resellers/{id}/balance': {
    operationId: 'adminAdjustBalance',
    description:
      'Credits or debits a balance through the ledger; the `reference` makes it idempotent (the same reference again changes nothing).',
    codes: ['ACCOUNT_NOT_FOUND', 'BALANCE_IS_INSUFFICIENT', 'DUPLICATE'],
    request: { amount: 1000000, reason: 'bank transfer 22 Nov', reference: 'manual-2026-11-22-1' },
  },
  'POST /api/admin/v1/items': {
    operationId: 'adminCreateItem',
    description: 'Creates an item (a variant) under a product, creating the category and product by name when new.',
    codes: ['PROVIDER_NOT_FOUND', 'DUPLICATE'],
  },
  'GET /api/admin/v1/items/{id}': {
    operationId: 'adminGetItem',
    description: 'One item, active or not, with its stock.',
    codes: ['ITEM_NOT_FOUND'],
  },
  'PATCH /api/admin/v1/items/{id}': {
    operationId: 'adminUpdateItem',
    description: 'Changes an item’s price, stock, activity or provider mapping; only the fields sent change.',
    codes: ['ITEM_NOT_FOUND', 'PROVIDER_NOT_FOUND', 'MINIMUM_ORDER_NOT_MET'],
    request: { price: 26000, active: true },
  },
  'POST /api/admin/v1/items/{id}/licenses': {
    operationId: 'adminAddLicenses',
    description: 'Adds licenses to an auto item’s stock (stored encrypted); duplicates are skipped and counted.',
    codes: ['ITEM_NOT_FOUND'],
    request: { licenses: ['ABCD-EFGH-IJKL', 'MNOP-QRST-UVWX'] },
  },
  'POST /api/admin/v1/providers': {
    operationId: 'adminCreateProvider',
    description: 'Registers an upstream provider (Digiflazz h2h or an SMM panel); its key is stored encrypted.',
    codes: ['DUPLICATE'],
  },
  'GET /api/admin/v1/providers': { operationId: 'adminListProviders', description: 'Every provider, never its key.' },
  'PATCH /api/admin/v1/providers/{code}': {
    operationId: 'adminUpdateProvider',
    description: 'Changes a provider; `active: false` makes its items answer PRODUCT_TEMPORARILY_UNAVAILABLE and stops its dispatches.',
    codes: ['PROVIDER_NOT_FOUND'],
    request: { active: false },
  },
  'GET /api/admin/v1/providers/{code}/balance': {
    operationId: 'adminProviderBalance',
    description: 'Asks an SMM panel what is left of its balance (its `balance` action).',
    codes: ['PROVIDER_NOT_FOUND', 'INVALID_STATE'],
  },
  'GET /api/admin/v1/transactions': {
    operationId: 'adminListTransactions',
    description: 'Transactions of every account, newest first, paged; filter by status or account.',
  },
  'GET /api/admin/v1/transactions/{id}': {
    operationId: 'adminGetTransaction',
    description: 'One transaction with its line ids (for send and cancel).',
    codes: ['TRX_NOT_FOUND'],
  },
  'POST /api/admin/v1/transactions/{id}/items/{line}/send': {
    operationId: 'adminSendManualLine',
    description:
      'Delivers a manual line with its license text; the order completes when its last line is delivered (`order.item.sent`, `order.completed`).',
    codes: ['TRX_NOT_FOUND', 'LINE_NOT_FOUND', 'INVALID_STATE'],
    request: { product_license: 'Account: demo@example.com / password: s3cret' },
  },
  'POST /api/admin/v1/transactions/{id}/cancel': {
    operationId: 'adminCancelTransaction',
    description: 'Cancels what is not delivered yet and refunds it, each line exactly once; lines at a provider wait for its final answer.',
    codes: ['TRX_NOT_FOUND', 'INVALID_STATE'],
  },
  'GET /api/admin/v1/channels': { operationId: 'adminListChannels', description: 'Payment channels, on and off.' },
  'POST /api/admin/v1/channels': {
    operationId: 'adminCreateChannel',
    description: 'Adds a payment channel; `code` is what resellers send as `channel`.',
    codes: ['DUPLICATE'],
    request: { code: 'QRIS', name: 'QRIS', type: 'qris', fee_flat: 750, fee_percent: 0.7 },
  },
  'PATCH /api/admin/v1/channels/{code}': {
    operationId: 'adminUpdateChannel',
    description: 'Changes a channel: name, type, fees, range, on/off.',
    codes: ['CHANNEL_NOT_FOUND'],
    request: { active: false },
  },
  'POST /api/admin/v1/channels/sync': {
    operationId: 'adminSyncChannels',
    description:
      'Imports the payment gateway’s channel list: new channels are added, known ones take the gateway’s name, fee and range; on/off stays yours.',
  },
  'GET /api/admin/v1/topups': { operationId: 'adminListTopups', description: 'Top-ups of every account, newest first; filter by status.' },
  'POST /api/admin/v1/topups/{reference}/pay': {
    operationId: 'adminPayTopup',
    description: 'Marks a simulator top-up paid, as its pay page does; the balance is credited once.',
    codes: ['TOPUP_NOT_FOUND', 'TOPUP_EXPIRED', 'INVALID_STATE'],
  },
  'GET /api/admin/v1/dispatches': {
    operationId: 'adminListDispatches',
    description: 'Upstream requests by status (default `review`: those waiting for an operator).',
  },
  'POST /api/admin/v1/dispatches/{id}/resolve': {
    operationId: 'adminResolveDispatch',
    description:
      'Settles an upstream request in review: `placed` with the panel’s `order_id` (smm, polled from then on) or an `sn` (h2h, delivered), or `failed` (refunded).',
    codes: ['DISPATCH_NOT_FOUND', 'INVALID_STATE'],
    request: { outcome: 'failed' },
  },
  'GET /api/admin/v1/resellers/{id}/webhook': {
    operationId: 'adminGetWebhook',
    description: 'An account’s webhook settings.',
    codes: ['ACCOUNT_NOT_FOUND'],
  },
  'GET /api/admin/v1/resellers/{id}/webhook-deliveries': {
    operationId: 'adminListWebhookDeliveries',
    description: 'An account’s webhook deliveries, newest first, with every attempt.',
    codes: ['ACCOUNT_NOT_FOUND'],
  },
  'POST /api/admin/v1/resellers/{id}/webhook-deliveries/{delivery}/retry': {
    operationId: 'adminRetryWebhookDelivery',
    description: 'Redelivers one of the account’s deliveries with the same `webhook-id`.',
    codes: ['ACCOUNT_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
  },
}
