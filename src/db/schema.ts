import type { Selectable } from 'kysely'
import type { AccountOrderSettlesTable, AccountsTable, ApiKeysTable, AppMetaTable, LedgerEntriesTable } from './tables/accounts.js'
import type {
  CategoriesTable,
  ItemSourcesTable,
  ItemsTable,
  LicenseFingerprintsTable,
  LicensesTable,
  ProductsTable,
  ProviderBalancesTable,
  ProvidersTable,
  StockLocksTable,
} from './tables/catalog.js'
import type { DispatchesTable, OrderLinesTable, OrdersTable, OutboxEventsTable, RefIdsTable, SandboxOrdersTable } from './tables/orders.js'
import type { BankMutationsTable, PaymentChannelsTable, TopupsTable, TransferTotalsTable } from './tables/topups.js'
import type { ConsoleSessionsTable } from './tables/console.js'
import type { BillInquiriesTable } from './tables/bills.js'
import type { ResellerSessionsTable, ResellerSignInFailuresTable, ResellerUsersTable } from './tables/dashboard.js'
import type { LeaderboardMonthsTable } from './tables/leaderboard.js'
import type {
  MarginSettingsTable,
  PricingRulesTable,
  SupplierChangesTable,
  SupplierProductsTable,
  SupplierSyncsTable,
} from './tables/suppliers.js'
import type { WebhookDeliveriesTable, WebhookDeliveryTotalsTable, WebhookSettingsTable } from './tables/webhooks.js'
import type { ItemLevelPricesTable, PriceLevelPromotionsTable, PriceLevelRulesTable, PriceLevelsTable } from './tables/price-levels.js'
import type { ComplaintMessagesTable, ComplaintsTable } from './tables/complaints.js'
import type { AlertChannelsTable, AlertDeliveriesTable, AlertsTable } from './tables/alerts.js'
import type { AuditLogTable, OperatorSignInFailuresTable, OperatorsTable, OperatorTokensTable } from './tables/team.js'

// Kysely's view of the database, one file per area under tables/; importers keep using this module.
export * from './tables/accounts.js'
export * from './tables/catalog.js'
export * from './tables/orders.js'
export * from './tables/topups.js'
export * from './tables/webhooks.js'
export * from './tables/leaderboard.js'
export * from './tables/console.js'
export * from './tables/bills.js'
export * from './tables/dashboard.js'
export * from './tables/suppliers.js'
export * from './tables/team.js'
export * from './tables/price-levels.js'
export * from './tables/complaints.js'
export * from './tables/alerts.js'

export interface DB {
  console_sessions: ConsoleSessionsTable
  dispatches: DispatchesTable
  ref_ids: RefIdsTable
  orders: OrdersTable
  order_lines: OrderLinesTable
  sandbox_orders: SandboxOrdersTable
  outbox_events: OutboxEventsTable
  app_meta: AppMetaTable
  accounts: AccountsTable
  account_order_settles: AccountOrderSettlesTable
  api_keys: ApiKeysTable
  ledger_entries: LedgerEntriesTable
  categories: CategoriesTable
  products: ProductsTable
  providers: ProvidersTable
  provider_balances: ProviderBalancesTable
  items: ItemsTable
  licenses: LicensesTable
  license_fingerprints: LicenseFingerprintsTable
  stock_locks: StockLocksTable
  payment_channels: PaymentChannelsTable
  topups: TopupsTable
  transfer_totals: TransferTotalsTable
  bank_mutations: BankMutationsTable
  webhook_settings: WebhookSettingsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_delivery_totals: WebhookDeliveryTotalsTable
  leaderboard_months: LeaderboardMonthsTable
  bill_inquiries: BillInquiriesTable
  reseller_users: ResellerUsersTable
  reseller_sessions: ResellerSessionsTable
  reseller_sign_in_failures: ResellerSignInFailuresTable
  supplier_syncs: SupplierSyncsTable
  supplier_products: SupplierProductsTable
  supplier_changes: SupplierChangesTable
  item_sources: ItemSourcesTable
  pricing_rules: PricingRulesTable
  margin_settings: MarginSettingsTable
  operators: OperatorsTable
  operator_tokens: OperatorTokensTable
  operator_sign_in_failures: OperatorSignInFailuresTable
  audit_log: AuditLogTable
  complaints: ComplaintsTable
  complaint_messages: ComplaintMessagesTable
  alerts: AlertsTable
  alert_channels: AlertChannelsTable
  alert_deliveries: AlertDeliveriesTable
  price_levels: PriceLevelsTable
  price_level_rules: PriceLevelRulesTable
  item_level_prices: ItemLevelPricesTable
  price_level_promotions: PriceLevelPromotionsTable
}

export type Account = Selectable<AccountsTable>
export type Item = Selectable<ItemsTable>
export type LedgerEntry = Selectable<LedgerEntriesTable>
export type Provider = Selectable<ProvidersTable>
export type Order = Selectable<OrdersTable>
export type OrderLine = Selectable<OrderLinesTable>
export type PaymentChannel = Selectable<PaymentChannelsTable>
export type Topup = Selectable<TopupsTable>
export type BankMutation = Selectable<BankMutationsTable>
export type Dispatch = Selectable<DispatchesTable>
