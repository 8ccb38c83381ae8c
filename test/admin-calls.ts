import { sql } from 'kysely'
import type { AppContext } from '../src/context.js'
import { SECRETS, type SweepWorld } from './sweep-world.js'
import type { Upstreams } from './upstreams.js'

// One call of each operator write that succeeds on the sweep world (test/sweep-world.ts), and the reads' URLs.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
/** `as: 'self'`: made by the world's own operator (an owner), the admin token having no tokens of its own. */
export type AdminCall = { method: Method; url: string; payload?: object | string; as?: 'self'; headers?: Record<string, string> }

const heldOf = async (ctx: AppContext, code: string) =>
  (await sql<{ id: number }>`SELECT id FROM supplier_changes WHERE kind = 'held' AND hold_open AND code = ${code}`.execute(ctx.db)).rows[0]
    ?.id ?? 999_999

type CallOf = (w: SweepWorld, ctx: AppContext, up: Upstreams) => AdminCall | Promise<AdminCall>

/**
 * One call of each operator write that succeeds on the sweep world, by operation id, in an order
 * where each finds what it needs (a delete after its create). A write route missing here fails the
 * sweeps by name: add its call.
 */
export const WRITE_CALLS: [string, CallOf][] = [
  ['adminCreateReseller', () => ({ method: 'POST', url: '/resellers', payload: { name: 'Sweep New', email: 'new@sweep.example' } })],
  ['adminUpdateReseller', (w) => ({ method: 'PATCH', url: `/resellers/${w.b.id}`, payload: { max_active_locks: 7 } })],
  ['adminRotateApiKey', (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/api-keys` })],
  ['adminAdjustBalance', (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/balance`, payload: { amount: 1_234, reason: 'sweep' } })],
  [
    'adminInviteDashboardUser',
    (w) => ({ method: 'POST', url: `/resellers/${w.b.id}/users`, payload: { email: 'b@sweep.example', role: 'staff' } }),
  ],
  ['adminRemoveDashboardUser', (w) => ({ method: 'DELETE', url: `/resellers/${w.a.id}/users/${w.user}` })],
  [
    'adminResetDashboardUserSecondFactor',
    (w) => ({ method: 'POST', url: `/resellers/${w.a.id}/users/${w.twoStepUser}/second-factor/reset` }),
  ],
  [
    'adminUpdateWebhook',
    (w) => ({
      method: 'PUT',
      url: `/resellers/${w.b.id}/webhook`,
      payload: { callback_url: 'https://shop.example/hook', webhook_enabled: true },
    }),
  ],
  ['adminRetryWebhookDelivery', (w) => ({ method: 'POST', url: `/resellers/${w.a.id}/webhook-deliveries/${w.delivery}/retry` })],
  ['adminCreateCategory', () => ({ method: 'POST', url: '/categories', payload: { name: 'Sweep Created' } })],
  ['adminUpdateCategory', (w) => ({ method: 'PATCH', url: `/categories/${w.category}`, payload: { name: 'Sweep Games 2' } })],
  ['adminDeleteCategory', (w) => ({ method: 'DELETE', url: `/categories/${w.spareCategory}` })],
  ['adminCreateProduct', (w) => ({ method: 'POST', url: '/products', payload: { name: 'Sweep Product', category_id: w.category } })],
  ['adminUpdateProduct', (w) => ({ method: 'PATCH', url: `/products/${w.product}`, payload: { name: 'Sweep Voucher 2' } })],
  [
    'adminCreatePriceLevel',
    () => ({ method: 'POST', url: '/price-levels', payload: { code: 'sweep-vip', name: 'Sweep VIP', position: 2 } }),
  ],
  ['adminUpdatePriceLevel', () => ({ method: 'PATCH', url: '/price-levels/sweep-vip', payload: { name: 'Sweep VIP 2' } })],
  [
    'adminPutLevelRules',
    (w) => ({
      method: 'PUT',
      url: '/price-levels/sweep-vip/rules',
      payload: {
        rules: [
          { scope: 'all', percent: -2, round_to: 50 },
          { scope: 'category', category_id: w.category, flat: 100 },
        ],
      },
    }),
  ],
  ['adminPutItemLevelPrices', (w) => ({ method: 'PUT', url: `/items/${w.items.manual}/level-prices`, payload: { 'sweep-vip': 4_900 } })],
  ['adminDeleteProduct', (w) => ({ method: 'DELETE', url: `/products/${w.spareProduct}` })],
  [
    'adminCreateItem',
    () => ({
      method: 'POST',
      url: '/items',
      payload: { product_name: 'Sweep Made', name: 'Made 1', sku: `SWEEP-MADE-${Date.now()}`, price: 3_000, order_process: 'manual' },
    }),
  ],
  ['adminUpdateItem', (w) => ({ method: 'PATCH', url: `/items/${w.items.manual}`, payload: { price: 5_500 } })],
  ['adminAddLicenses', (w) => ({ method: 'POST', url: `/items/${w.items.auto}/licenses`, payload: { licenses: [SECRETS.license] } })],
  [
    'adminPutItemSources',
    (w) => ({
      method: 'PUT',
      url: `/items/${w.items.imported.tsel10}/sources`,
      payload: { sources: [{ provider: w.provider, code: 'tsel10', priority: 3 }] },
    }),
  ],
  [
    'adminCreateProvider',
    () => ({
      method: 'POST',
      url: '/providers',
      payload: { code: 'sw-new', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1', username: 'sweep', api_key: SECRETS.providerKey },
    }),
  ],
  [
    'adminUpdateProvider',
    () => ({ method: 'PATCH', url: '/providers/sw-new', payload: { api_key: SECRETS.newProviderKey, active: false } }),
  ],
  [
    'adminSyncSupplier',
    (w, _ctx, up) => {
      up.digiflazz.priceLists.prepaid.change('tsel10', { price: 10_400 })
      return { method: 'POST', url: `/providers/${w.provider}/sync?force=true` }
    },
  ],
  ['adminRefreshProviderBalance', (w) => ({ method: 'POST', url: `/providers/${w.provider}/balance/refresh` })],
  ['adminImportSupplierProducts', (w) => ({ method: 'POST', url: `/providers/${w.provider}/import`, payload: { codes: ['ff140'] } })],
  [
    'adminApproveHeldPrice',
    async (w, ctx) => ({ method: 'POST', url: `/providers/${w.provider}/held/${await heldOf(ctx, 'ml86')}/approve` }),
  ],
  [
    'adminRejectHeldPrice',
    async (w, ctx) => ({ method: 'POST', url: `/providers/${w.provider}/held/${await heldOf(ctx, 'ml172')}/reject` }),
  ],
  [
    'adminPutPricingRule',
    (w) => ({ method: 'PUT', url: '/pricing-rules', payload: { scope: 'provider', provider: w.provider, percent: 5, round_to: 100 } }),
  ],
  [
    'adminDeletePricingRule',
    async (_w, ctx) => {
      const rule = await ctx.db.selectFrom('pricing_rules').select('id').orderBy('id', 'desc').executeTakeFirst()
      return { method: 'DELETE', url: `/pricing-rules/${rule?.id ?? 999_999}` }
    },
  ],
  [
    'adminSendManualLine',
    (w) => ({
      method: 'POST',
      url: `/transactions/${w.orders.send.id}/items/${w.orders.send.line}/send`,
      payload: { product_license: SECRETS.manualLicense },
    }),
  ],
  ['adminReplyComplaint', (w) => ({ method: 'POST', url: `/complaints/${w.complaints.reply}/reply`, payload: { message: 'sweep' } })],
  ['adminRejectComplaint', (w) => ({ method: 'POST', url: `/complaints/${w.complaints.reply}/reject`, payload: { reason: 'sweep' } })],
  [
    'adminResendComplaint',
    (w) => ({
      method: 'POST',
      url: `/complaints/${w.complaints.resend}/resend`,
      payload: { mode: 'manual', product_license: SECRETS.manualLicense },
    }),
  ],
  ['adminRecheckComplaint', (w) => ({ method: 'POST', url: `/complaints/${w.complaints.recheck}/recheck` })],
  ['adminRefundComplaint', (w) => ({ method: 'POST', url: `/complaints/${w.complaints.refund}/refund`, payload: {} })],
  ['adminCancelTransaction', (w) => ({ method: 'POST', url: `/transactions/${w.orders.cancel}/cancel`, payload: { reason: 'sweep' } })],
  [
    'adminResolveDispatch',
    (w) => ({ method: 'POST', url: `/dispatches/${w.dispatch}/resolve`, payload: { outcome: 'failed', reason: 'sweep' } }),
  ],
  [
    'adminCreateChannel',
    () => ({ method: 'POST', url: '/channels', payload: { code: 'SWVA', name: 'Sweep VA', type: 'va', fee_flat: 4_000 } }),
  ],
  ['adminUpdateChannel', (w) => ({ method: 'PATCH', url: `/channels/${w.channel}`, payload: { fee_flat: 1_000 } })],
  ['adminSyncChannels', () => ({ method: 'POST', url: '/channels/sync' })],
  ['adminPayTopup', (w) => ({ method: 'POST', url: `/topups/${w.topups.pending}/pay` })],
  ['adminExpireTopup', (w) => ({ method: 'POST', url: `/topups/${w.topups.toExpire}/expire` })],
  [
    'adminResolveTopup',
    (w) => ({
      method: 'POST',
      url: `/topups/${w.topups.review}/resolve`,
      payload: { credit_amount: 50_000, reason: 'sweep: bank statement' },
    }),
  ],
  [
    'adminMatchBankMutation',
    (w) => ({ method: 'POST', url: `/bank-mutations/${w.bank.toMatch}/match`, payload: { topup_reference: w.bank.topup } }),
  ],
  ['adminIgnoreBankMutation', (w) => ({ method: 'POST', url: `/bank-mutations/${w.bank.toIgnore}/ignore`, payload: { note: 'sweep' } })],
  [
    'adminImportBankStatement',
    (w) => ({
      method: 'POST',
      url: `/bank-mutations/import?channel=${w.bank.channel}`,
      headers: { 'content-type': 'text/csv' },
      payload: 'date,description,amount,type\n2026-12-06,SWEEP STATEMENT,45678,CR\n',
    }),
  ],
  [
    'adminPutAlertChannels',
    () => ({
      method: 'PUT',
      url: '/alert-channels',
      payload: {
        email: { to: 'ops@sweep.example' },
        telegram: { chat_id: '-100123' },
        webhook: { url: 'https://ops.sweep.example/alerts' },
      },
    }),
  ],
  [
    'adminInviteOperator',
    () => ({ method: 'POST', url: '/operators', payload: { email: 'invited@sweep.example', name: 'Invited', role: 'finance' } }),
  ],
  ['adminUpdateOperator', (w) => ({ method: 'PATCH', url: `/operators/${w.target.id}`, payload: { name: 'Target Renamed' } })],
  ['adminResetOperatorSecondFactor', (w) => ({ method: 'POST', url: `/operators/${w.target.id}/second-factor/reset` })],
  ['adminRevokeOperatorToken', (w) => ({ method: 'DELETE', url: `/operators/${w.target.id}/tokens/${w.target.tokenId}` })],
  ['adminRemoveOperator', (w) => ({ method: 'DELETE', url: `/operators/${w.removable.id}` })],
  ['adminCreateMyToken', () => ({ method: 'POST', url: '/me/tokens', payload: { name: 'sweep-made' }, as: 'self' })],
  [
    'adminRevokeMyToken',
    async (w, ctx) => {
      const made = await ctx.db
        .selectFrom('operator_tokens')
        .select('id')
        .where('operator_id', '=', w.self.id)
        .where('name', '=', 'sweep-made')
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return { method: 'DELETE', url: `/me/tokens/${made?.id ?? 999_999}`, as: 'self' }
    },
  ],
]

/** A read's URL with its path parameters filled from the world: ids that exist where the route reads one row. */
export function readUrl(path: string, w: SweepWorld): string {
  const byResource: Record<string, string> = {
    resellers: String(w.a.id),
    items: String(w.items.manual),
    providers: w.provider,
    transactions: String(w.orders.send.id),
    categories: String(w.category),
    products: String(w.product),
    'price-levels': 'reseller',
    channels: w.channel,
    topups: w.topups.pending,
    dispatches: String(w.dispatch),
    held: '1',
    'webhook-deliveries': String(w.delivery),
    users: String(w.user),
    operators: String(w.target.id),
    tokens: String(w.target.tokenId),
    complaints: String(w.complaints.reply),
  }
  const segments = path.replace('/api/admin/v1', '').split('/')
  return segments.map((s, i) => (/^\{\w+\}$/.test(s) ? (byResource[segments[i - 1]!] ?? '1') : s)).join('/')
}
