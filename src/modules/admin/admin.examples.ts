// Example answers of the operator API for its OpenAPI document: one store's data (Toko Maju, account 12), as the routes send it.
import { validationFields } from '../catalog/index.js'

const ZONE_FIELDS = validationFields(true)

const created = '2026-11-20T08:00:00.000Z'
const at = '2026-11-22T10:15:00.000Z'

export const account = {
  id: 12,
  name: 'Toko Maju',
  email: 'ops@tokomaju.example',
  status: 'active',
  balance: 2475000,
  max_active_locks: null,
  ip_allowlist: [],
  price_level: 'reseller',
  created_at: created,
  updated_at: created,
}
export const apiKey = 'rk_Qm9uZXlQZW5ueTEyMzQ1Njc4OTBhYmNkZWZnaGlqa2w'
export const listMeta = (total: number) => ({ page: 1, per_page: 50, total, last_page: 1 })
export const cursorMeta = (total: number) => ({ ...listMeta(total), total_capped: false, next_cursor: null })

export const adjustment = {
  applied: true,
  entry: {
    id: 412,
    direction: 'credit',
    type: 'adjustment',
    amount: 1000000,
    balance_before: 1475000,
    balance_after: 2475000,
    description: 'bank transfer 22 Nov',
    reference: 'manual-2026-11-22-1',
    created_at: at,
  },
}

export const item = {
  id: 7,
  sku: 'VC25K',
  name: 'Voucher 25K',
  price: 25000,
  stock: 48,
  unlimited_stock: false,
  min_order: 1,
  max_order: null,
  order_process: 'auto',
  status: 'on',
  h2h_provider: null,
  provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null },
  postpaid: false,
  required_fields: [],
  validation: { available: false, requires_zone_id: false, fields: [], endpoint: null },
  description: '',
  updated_at: at,
  product_id: 3,
  product_name: 'Game Voucher',
  category: 'Game Voucher',
  active: true,
  provider_code: null,
  cost: null,
  price_locked: false,
  allow_loss: false,
  min_margin: null,
}
export const h2hItem = {
  ...item,
  id: 21,
  sku: 'ML86',
  name: '86 Diamonds',
  price: 19800,
  stock: null,
  unlimited_stock: true,
  order_process: 'h2h',
  h2h_provider: 'digiflazz',
  required_fields: [{ key: 'note', label: 'Customer number or game account id', required: true }],
  validation: { available: true, requires_zone_id: true, fields: ZONE_FIELDS, endpoint: '/api/v1/item/validate' },
  product_id: 9,
  product_name: 'Mobile Legends Diamonds',
  category: 'Games',
  provider_code: 'ml86',
  cost: 19500,
}

export const provider = {
  code: 'digiflazz',
  kind: 'digiflazz',
  base_url: 'https://api.digiflazz.com/v1',
  username: 'tokomaju',
  has_api_key: true,
  active: true,
  balance_alert_below: 500_000,
  balance_alert_hours: 12,
  created_at: created,
  updated_at: created,
}
export const smmProvider = {
  ...provider,
  code: 'smm-panel',
  kind: 'smm_panel',
  base_url: 'https://panel.example/api/v2',
  username: null,
}

export const orderRows = [
  { id: 1043, account_id: 12, invoice: 'INV20261122M3T8W1QB', ref_id: 'shop-order-882', amount: 45000, status: 'paid', created_at: at },
  {
    id: 1042,
    account_id: 12,
    invoice: 'INV20261122K7Q2M9XA',
    ref_id: 'shop-order-881',
    amount: 25000,
    status: 'completed',
    created_at: at,
  },
]
// A manual line waiting for the operator: the order stays paid until it is sent.
export const orderDetail = {
  id: 1043,
  ref_id: 'shop-order-882',
  invoice: 'INV20261122M3T8W1QB',
  payment_method: 'saldo',
  status: 'paid',
  price: 45000,
  fees: 0,
  amount: 45000,
  note: null,
  payment_link: null,
  qr_link: null,
  expired_at: null,
  created_at: at,
  updated_at: at,
  h2h_results: [],
  smm_results: [],
  // A manual line makes no upstream request.
  requests: [],
  account_id: 12,
  cancel_reason: null,
  items: [
    {
      id: 2087,
      variant_id: 31,
      variant_name: 'Netflix 1 Month',
      product_id: 14,
      product_name: 'Netflix Premium',
      quantity: 1,
      qty: 1,
      price: 45000,
      subtotal: 45000,
      note: null,
      buyer_note: null,
      target: null,
      order_process: 'manual',
      status: 'pending',
      product_license: null,
      seller_note: null,
      description: null,
    },
  ],
  ledger_entries: [
    {
      id: 413,
      direction: 'debit',
      type: 'purchase',
      amount: 45000,
      balance_before: 2475000,
      balance_after: 2430000,
      description: 'Purchase INV20261122M3T8W1QB',
      order_line_id: null,
      created_at: at,
    },
  ],
}
