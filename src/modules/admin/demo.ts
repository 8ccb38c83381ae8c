import type { AppContext } from '../../context.js'
import { createAccount, adjustBalance } from '../accounts/accounts.service.js'
import { addLicenses, createItem } from '../catalog/items.service.js'
import { createProvider } from '../catalog/providers.service.js'

/** True when the database has no accounts yet: the only time the demo is seeded. */
export async function isEmpty(ctx: AppContext): Promise<boolean> {
  return (await ctx.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) === undefined
}

const voucher = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}-${Math.random().toString(36).slice(2, 10).toUpperCase()}`)

/** A catalog with every order_process, licenses, simulator providers and a funded demo account. */
export async function seedDemo(ctx: AppContext): Promise<{ accountId: number; apiKey: string }> {
  const { db, vault, config } = ctx
  await createProvider(db, vault, { code: 'sim-h2h', kind: 'digiflazz', base_url: `${config.publicUrl}/sim/digiflazz/v1`, username: 'demo', api_key: 'demo-key' })
  await createProvider(db, vault, { code: 'sim-smm', kind: 'smm_panel', base_url: `${config.publicUrl}/sim/smm/api/v2`, api_key: 'demo-key' })

  const steam = await createItem(db, { category: 'Game Voucher', product_name: 'Steam Wallet IDR', name: 'Steam Wallet 60.000', sku: 'STEAM60', price: 61500, order_process: 'auto' })
  await addLicenses(db, vault, steam.id, voucher('STEAM60', 50))
  const gp = await createItem(db, { category: 'Game Voucher', product_name: 'Google Play Gift Card', name: 'Google Play 100.000', sku: 'GP100', price: 99000, order_process: 'auto' })
  await addLicenses(db, vault, gp.id, voucher('GP100', 30))
  await createItem(db, { category: 'Mobile Legends', product_name: 'Mobile Legends Diamonds', name: '86 Diamonds', sku: 'ML86', price: 19800, order_process: 'h2h', unlimited_stock: true, provider: 'sim-h2h', provider_code: 'ml86', provider_meta: { validation: true, requires_zone_id: true } })
  await createItem(db, { category: 'Pulsa', product_name: 'Telkomsel Pulsa', name: 'Telkomsel 10.000', sku: 'TSEL10', price: 10850, order_process: 'h2h', unlimited_stock: true, provider: 'sim-h2h', provider_code: 'tsel10' })
  await createItem(db, { category: 'Social Media', product_name: 'Instagram Followers', name: 'Instagram Followers (per 100)', sku: 'IGF100', price: 15000, order_process: 'smm', unlimited_stock: true, min_order: 1, provider: 'sim-smm', provider_code: '1' })
  await createItem(db, { category: 'Premium Account', product_name: 'Netflix Premium', name: 'Netflix 1 Month', sku: 'NFX1M', price: 45000, order_process: 'manual', stock: 20 })

  const account = await createAccount(db, { name: 'Demo Reseller', email: 'demo@example.com' })
  await adjustBalance(db, account.id, { amount: 5_000_000, reason: 'demo opening balance', reference: 'demo-opening' })
  return { accountId: account.id, apiKey: account.api_key }
}
