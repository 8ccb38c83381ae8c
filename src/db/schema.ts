import type { ColumnType, Generated, Selectable } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Id = Generated<number>

export interface AppMetaTable {
  key: string
  value: string
}

export interface AccountsTable {
  id: Id
  name: string
  email: string | null
  status: Generated<'active' | 'suspended'>
  balance: Generated<number>
  max_active_locks: number | null
  ip_allowlist: Generated<string[]>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export interface ApiKeysTable {
  id: Id
  account_id: number
  key_hash: string
  key_prefix: string
  created_at: Generated<Date>
  revoked_at: Date | null
}

export type LedgerDirection = 'credit' | 'debit'
export type LedgerType = 'topup' | 'purchase' | 'refund' | 'adjustment'

export interface LedgerEntriesTable {
  id: Id
  account_id: number
  direction: LedgerDirection
  type: LedgerType
  amount: number
  balance_before: number
  balance_after: number
  description: string
  invoice: string | null
  reference: string | null
  order_id: number | null
  order_line_id: number | null
  topup_id: number | null
  created_at: Generated<Date>
}

export interface CategoriesTable {
  id: Id
  name: string
  icon: string | null
  created_at: Generated<Date>
}

export interface ProductsTable {
  id: Id
  category_id: number
  name: string
  image: string | null
  created_at: Generated<Date>
}

export type ProviderKind = 'digiflazz' | 'smm_panel'

export interface ProvidersTable {
  code: string
  kind: ProviderKind
  base_url: string
  username: string | null
  api_key_enc: string | null
  active: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export type OrderProcess = 'auto' | 'h2h' | 'smm' | 'manual'
export type ProviderMeta = {
  open_denom?: boolean
  min_qty?: number
  max_qty?: number
  step_qty?: number
  validation?: boolean
  requires_zone_id?: boolean
}
export type RequiredField = { key: string; label: string; required: boolean }

export interface ItemsTable {
  id: Id
  product_id: number
  sku: string
  name: string
  price: number
  order_process: OrderProcess
  min_order: Generated<number>
  max_order: number | null
  unlimited_stock: Generated<boolean>
  stock: Generated<number>
  active: Generated<boolean>
  provider: string | null
  provider_code: string | null
  provider_meta: ColumnType<ProviderMeta, string | undefined, string>
  required_fields: ColumnType<RequiredField[] | null, string | null | undefined, string | null>
  description: Generated<string>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export interface LicensesTable {
  id: Id
  item_id: number
  content_enc: string
  fingerprint: string
  status: Generated<'available' | 'sold'>
  order_line_id: number | null
  created_at: Generated<Date>
  sold_at: Date | null
}

export type LockStatus = 'active' | 'used' | 'expired' | 'released'

export interface StockLocksTable {
  id: Id
  token: string
  account_id: number
  item_id: number
  quantity: number
  status: Generated<LockStatus>
  locked_at: Generated<Date>
  expires_at: Timestamp
  finished_at: Date | null
  order_id: number | null
}

export type OrderStatus = 'pending' | 'paid' | 'completed' | 'canceled'
export type LineStatus = 'pending' | 'processing' | 'delivered' | 'sent' | 'refunded' | 'cancel_requested'

export interface RefIdsTable {
  account_id: number
  ref_id: string
  kind: 'order' | 'topup'
}

export interface OrdersTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  status: OrderStatus
  payment_method: Generated<string>
  price: number
  fees: Generated<number>
  amount: number
  lock_id: number | null
  cancel_reason: string | null
  created_at: Generated<Date>
  updated_at: Timestamp
  finished_at: Date | null
}

export interface OrderLinesTable {
  id: Id
  order_id: number
  position: number
  item_id: number
  order_process: OrderProcess
  product_name: string
  variant_name: string
  quantity: number
  unit_price: number
  subtotal: number
  note: string | null
  status: LineStatus
  refunded_amount: Generated<number>
  stock_taken: Generated<number>
  delivery_enc: string | null
  delivery_note: string | null
  delivered_at: Date | null
}

export interface SandboxOrdersTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  item_id: number
  quantity: number
  price: number
  amount: number
  created_at: Generated<Date>
}

export interface OutboxEventsTable {
  id: Id
  account_id: number
  event: string
  order_id: number | null
  order_line_id: number | null
  created_at: Generated<Date>
  processed_at: Date | null
}

export type ChannelType = 'qris' | 'va' | 'ewallet' | 'retail'

export interface PaymentChannelsTable {
  code: string
  name: string
  type: ChannelType
  fee_flat: Generated<number>
  /** numeric: a string from either driver until converted */
  fee_percent: ColumnType<number | string, number | undefined, number>
  min_amount: Generated<number>
  max_amount: Generated<number>
  active: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export type TopupStatus = 'pending' | 'paid' | 'expired' | 'failed'
export type PaymentGateway = 'simulator' | 'tripay'

export interface TopupsTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  channel: string
  gateway: PaymentGateway
  reference: string
  amount: number
  fee: number
  total: number
  status: Generated<TopupStatus>
  gateway_status: string | null
  payment_url: string
  expires_at: Timestamp
  paid_at: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

export type DispatchStatus = 'queued' | 'sending' | 'pending' | 'completed' | 'failed' | 'review' | 'void'

export interface DispatchesTable {
  id: Id
  order_id: number
  order_line_id: number
  seq: number
  provider: string
  kind: ProviderKind
  upstream_ref: string
  provider_code: string
  target: string
  options: ColumnType<{ comments?: string; opt?: string }, string | undefined, string>
  quantity: number
  amount: number
  status: Generated<DispatchStatus>
  upstream_order_id: string | null
  upstream_status: string | null
  sn: string | null
  message: string | null
  start_count: number | null
  remains: number | null
  refund_amount: Generated<number>
  attempts: Generated<number>
  next_attempt_at: Timestamp
  first_sent_at: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
  finished_at: Date | null
}

export interface WebhookSettingsTable {
  account_id: number
  callback_url: string | null
  webhook_enabled: Generated<boolean>
  secret_enc: string | null
  secret_created_at: Date | null
  updated_at: Timestamp
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed'

export interface WebhookDeliveriesTable {
  id: Id
  account_id: number
  outbox_event_id: number | null
  event: string
  order_id: number | null
  order_line_id: number | null
  webhook_id: string
  status: Generated<DeliveryStatus>
  claims: Generated<number>
  failures: Generated<number>
  next_attempt_at: Date | null
  created_at: Generated<Date>
  delivered_at: Date | null
}

export interface WebhookAttemptsTable {
  id: Id
  delivery_id: number
  attempted_at: Date
  status_code: number | null
  duration_ms: number
  error: string | null
}

export interface ConsoleSessionsTable {
  token_hash: string
  created_at: Generated<Date>
  expires_at: Date
}

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
  api_keys: ApiKeysTable
  ledger_entries: LedgerEntriesTable
  categories: CategoriesTable
  products: ProductsTable
  providers: ProvidersTable
  items: ItemsTable
  licenses: LicensesTable
  stock_locks: StockLocksTable
  payment_channels: PaymentChannelsTable
  topups: TopupsTable
  webhook_settings: WebhookSettingsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
}

export type Account = Selectable<AccountsTable>
export type Item = Selectable<ItemsTable>
export type LedgerEntry = Selectable<LedgerEntriesTable>
export type Provider = Selectable<ProvidersTable>
export type Order = Selectable<OrdersTable>
export type OrderLine = Selectable<OrderLinesTable>
export type PaymentChannel = Selectable<PaymentChannelsTable>
export type Topup = Selectable<TopupsTable>
export type Dispatch = Selectable<DispatchesTable>
