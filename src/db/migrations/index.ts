import type { Migration } from 'kysely'
import * as foundation from './20261122_0001_foundation.js'
import * as orders from './20261122_0002_orders.js'
import * as moneyBounds from './20261122_0003_money-bounds.js'
import * as licensesStoreWide from './20261122_0004_licenses-store-wide.js'
import * as fulfilment from './20261122_0010_fulfilment.js'
import * as topups from './20261122_0020_topups.js'
import * as webhooks from './20261122_0030_webhooks.js'
import * as leaderboard from './20261123_0040_leaderboard.js'
import * as webhookAttemptLog from './20261123_0050_webhook-attempt-log.js'
import * as growingLists from './20261123_0070_growing-lists.js'
import * as operatorConsole from './20261123_0090_console.js'
import * as outboxQueue from './20261124_0100_outbox-queue.js'
import * as licensesOneUnique from './20261124_0110_licenses-one-unique.js'
import * as accountListCounters from './20261124_0120_account-list-counters.js'
import * as accountOrderSettles from './20261125_0130_account-order-settles.js'
import * as webhookDueOrder from './20261125_0140_webhook-due-order.js'
import * as licensesAutovacuum from './20261125_0150_licenses-autovacuum.js'
import * as checkedByType from './20261126_0160_checked-by-type.js'
import * as webhookIdSalt from './20261126_0170_webhook-id-salt.js'
import * as licenseFingerprints from './20261126_0180_license-fingerprints.js'
import * as leaderboardOnRelay from './20261126_0190_leaderboard-on-relay.js'
import * as webhookSlowTail from './20261126_0200_webhook-slow-tail.js'
import * as topupReview from './20261127_0210_topup-review.js'
import * as webhookPayloadOnce from './20261127_0220_webhook-payload-once.js'
import * as categorySlugs from './20261127_0230_category-slugs.js'
import * as dashboardUsers from './20261127_0240_dashboard-users.js'
import * as billInquiries from './20261127_0250_bill-inquiries.js'
import * as supplierProducts from './20261127_0270_supplier-products.js'
import * as itemSourcesPricing from './20261127_0280_item-sources-pricing.js'
import * as retention from './20261127_0290_retention.js'
import * as marginFloor from './20261206_0300_margin-floor.js'
import * as purchaseMaxPrice from './20261206_0310_purchase-max-price.js'
import * as heldPrices from './20261206_0320_held-prices.js'
import * as dashboardMemberships from './20261206_0330_dashboard-memberships.js'
import * as operatorTeam from './20261206_0340_operator-team.js'
import * as catalogChangeTrigger from './20261206_0360_catalog-change-trigger.js'
import * as priceLevels from './20261206_0380_price-levels.js'
import * as bankTransfer from './20261206_0400_bank-transfer.js'
import * as complaints from './20261206_0420_complaints.js'
import * as supplierBalances from './20261206_0440_supplier-balances.js'
import * as alerts from './20261206_0460_alerts.js'
import * as alertConditions from './20261206_0465_alert-conditions.js'
import * as supplyChangeTriggers from './20261206_0470_supply-change-triggers.js'
import * as operatorLanguage from './20261206_0480_operator-language.js'
import * as dispatchDueOrder from './20261207_0500_dispatch-due-order.js'
import * as lineRefundReference from './20261207_0520_line-refund-reference.js'
import * as orderSettlesApart from './20261207_0530_order-settles-apart.js'
import * as webhookDeliveryTotals from './20261207_0540_webhook-delivery-totals.js'
import * as webhookFastAccountsUndeduplicated from './20261207_0550_webhook-fast-accounts-undeduplicated.js'
import * as accountsOrderSettlesDropped from './20261207_0560_accounts-order-settles-dropped.js'

// Append-only: a new migration gets a new timestamped file and a new line here.
export const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0002_orders': orders,
  '20261122_0003_money-bounds': moneyBounds,
  '20261122_0004_licenses-store-wide': licensesStoreWide,
  '20261122_0010_fulfilment': fulfilment,
  '20261122_0020_topups': topups,
  '20261122_0030_webhooks': webhooks,
  '20261123_0040_leaderboard': leaderboard,
  '20261123_0050_webhook-attempt-log': webhookAttemptLog,
  '20261123_0070_growing-lists': growingLists,
  '20261123_0090_console': operatorConsole,
  '20261124_0100_outbox-queue': outboxQueue,
  '20261124_0110_licenses-one-unique': licensesOneUnique,
  '20261124_0120_account-list-counters': accountListCounters,
  '20261125_0130_account-order-settles': accountOrderSettles,
  '20261125_0140_webhook-due-order': webhookDueOrder,
  '20261125_0150_licenses-autovacuum': licensesAutovacuum,
  '20261126_0160_checked-by-type': checkedByType,
  '20261126_0170_webhook-id-salt': webhookIdSalt,
  '20261126_0180_license-fingerprints': licenseFingerprints,
  '20261126_0190_leaderboard-on-relay': leaderboardOnRelay,
  '20261126_0200_webhook-slow-tail': webhookSlowTail,
  '20261127_0210_topup-review': topupReview,
  '20261127_0220_webhook-payload-once': webhookPayloadOnce,
  '20261127_0230_category-slugs': categorySlugs,
  '20261127_0240_dashboard-users': dashboardUsers,
  '20261127_0250_bill-inquiries': billInquiries,
  '20261127_0270_supplier-products': supplierProducts,
  '20261127_0280_item-sources-pricing': itemSourcesPricing,
  '20261127_0290_retention': retention,
  '20261206_0300_margin-floor': marginFloor,
  '20261206_0310_purchase-max-price': purchaseMaxPrice,
  '20261206_0320_held-prices': heldPrices,
  '20261206_0330_dashboard-memberships': dashboardMemberships,
  '20261206_0340_operator-team': operatorTeam,
  '20261206_0360_catalog-change-trigger': catalogChangeTrigger,
  '20261206_0380_price-levels': priceLevels,
  '20261206_0400_bank-transfer': bankTransfer,
  '20261206_0420_complaints': complaints,
  '20261206_0440_supplier-balances': supplierBalances,
  '20261206_0460_alerts': alerts,
  '20261206_0465_alert-conditions': alertConditions,
  '20261206_0470_supply-change-triggers': supplyChangeTriggers,
  '20261206_0480_operator-language': operatorLanguage,
  '20261207_0500_dispatch-due-order': dispatchDueOrder,
  '20261207_0520_line-refund-reference': lineRefundReference,
  '20261207_0530_order-settles-apart': orderSettlesApart,
  '20261207_0540_webhook-delivery-totals': webhookDeliveryTotals,
  '20261207_0550_webhook-fast-accounts-undeduplicated': webhookFastAccountsUndeduplicated,
  '20261207_0560_accounts-order-settles-dropped': accountsOrderSettlesDropped,
}
