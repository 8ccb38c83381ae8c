import { sql } from 'kysely'
import type { AppContext } from '../../context.js'
import { inTransaction, type Trx } from '../../db/database.js'
import { holdAdvisoryLock } from '../../db/functions/advisory-locks.js'
import { simulatorPriceLists } from '../../providers/simulator-price-lists.js'
import { adjustBalanceWithin, createAccountWithin } from '../accounts/index.js'
import { addLicensesWithin, createItemWithin, createProvider } from '../catalog/index.js'
import { importListWithin } from '../suppliers/index.js'
import { createChannelWithin } from '../topups/index.js'

/** No accounts, items or providers yet: the only time the demo is seeded (an operator's data is never mixed with it). */
async function isEmpty(trx: Trx): Promise<boolean> {
  const { rows } = await sql<{ empty: boolean }>`
    SELECT NOT EXISTS (SELECT 1 FROM accounts) AND NOT EXISTS (SELECT 1 FROM items) AND NOT EXISTS (SELECT 1 FROM providers) AS empty`.execute(
    trx,
  )
  return rows[0].empty
}

// 3 % over cost, rounded up to Rp 50, at least Rp 100 over cost; a panel's unit costs a fraction of a rupiah.
const DIGIFLAZZ_RULE = { percent: 3, flat: 0, round_to: 50, min_margin: 100 }
const PANEL_RULE = { percent: 20, flat: 0, round_to: 1, min_margin: 0 }

const voucher = (prefix: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  )

/**
 * A catalog with every order_process, licenses, simulator providers with their price lists imported
 * and a funded demo account, on an empty database only. One transaction under an advisory lock: processes starting together make
 * one demo between them (the others find the database no longer empty and answer undefined), and a
 * seed that fails midway leaves nothing behind.
 */
export async function seedDemo(ctx: AppContext): Promise<{ accountId: number; apiKey: string } | undefined> {
  const { vault, config } = ctx
  return inTransaction(ctx.db, async (trx) => {
    await holdAdvisoryLock(trx, 'demoSeed')
    if (!(await isEmpty(trx))) return undefined
    await createProvider(trx, vault, {
      code: 'sim-h2h',
      kind: 'digiflazz',
      base_url: `${config.publicUrl}/sim/digiflazz/v1`,
      username: 'demo',
      api_key: 'demo-key',
    })
    await createProvider(trx, vault, {
      code: 'sim-smm',
      kind: 'smm_panel',
      base_url: `${config.publicUrl}/sim/smm/api/v2`,
      api_key: 'demo-key',
    })

    const steam = await createItemWithin(trx, {
      category: 'Game Voucher',
      product_name: 'Steam Wallet IDR',
      name: 'Steam Wallet 60.000',
      sku: 'STEAM60',
      price: 61500,
      order_process: 'auto',
    })
    await addLicensesWithin(trx, vault, steam, voucher('STEAM60', 50))
    const gp = await createItemWithin(trx, {
      category: 'Game Voucher',
      product_name: 'Google Play Gift Card',
      name: 'Google Play 100.000',
      sku: 'GP100',
      price: 99000,
      order_process: 'auto',
    })
    await addLicensesWithin(trx, vault, gp, voucher('GP100', 30))
    await createItemWithin(trx, {
      category: 'Mobile Legends',
      product_name: 'Mobile Legends Diamonds',
      name: '86 Diamonds',
      sku: 'ML86',
      price: 19800,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'sim-h2h',
      provider_code: 'ml86',
      provider_meta: { validation: true, requires_zone_id: true },
    })
    await createItemWithin(trx, {
      category: 'Pulsa',
      product_name: 'Telkomsel Pulsa',
      name: 'Telkomsel 10.000',
      sku: 'TSEL10',
      price: 10850,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'sim-h2h',
      provider_code: 'tsel10',
    })
    await createItemWithin(trx, {
      category: 'Social Media',
      product_name: 'Instagram Followers',
      name: 'Instagram Followers (per 100)',
      sku: 'IGF100',
      price: 15000,
      order_process: 'smm',
      unlimited_stock: true,
      min_order: 1,
      provider: 'sim-smm',
      provider_code: '1',
    })
    await createItemWithin(trx, {
      category: 'Premium Account',
      product_name: 'Netflix Premium',
      name: 'Netflix 1 Month',
      sku: 'NFX1M',
      price: 45000,
      order_process: 'manual',
      stock: 20,
    })
    // A postpaid bill (docs/design.md §5c): its price is the admin fee per bill; the simulator's PLN customers
    // have bills (…2 a payment that fails, …3 one that settles later, …5 no bill, …8 one its supplier
    // asks more for than this admin fee covers: refused by the floor, on Margin watch).
    await createItemWithin(trx, {
      category: 'Tagihan',
      product_name: 'PLN Pascabayar',
      name: 'PLN Pascabayar',
      sku: 'PLNPASCA',
      price: 2500,
      order_process: 'h2h',
      unlimited_stock: true,
      provider: 'sim-h2h',
      provider_code: 'pln',
      provider_meta: { postpaid: true },
    })
    // The rest of the catalog comes from the simulators' price lists (docs/design.md §11b), after the items
    // above (their ids are the README's): each product not yet sold, priced by a provider-wide rule.
    const lists = simulatorPriceLists()
    await importListWithin(trx, 'sim-h2h', lists.digiflazz, DIGIFLAZZ_RULE)
    await importListWithin(trx, 'sim-smm', lists.smmPanel, PANEL_RULE)

    // Top-up channels of each kind, with fees shaped like a gateway's (docs/design.md §7).
    await createChannelWithin(trx, {
      code: 'QRIS',
      name: 'QRIS',
      type: 'qris',
      fee_flat: 750,
      fee_percent: 0.7,
      min_amount: 10_000,
      max_amount: 5_000_000,
    })
    await createChannelWithin(trx, {
      code: 'BRIVA',
      name: 'BRI Virtual Account',
      type: 'va',
      fee_flat: 4_250,
      min_amount: 10_000,
      max_amount: 10_000_000,
    })
    await createChannelWithin(trx, {
      code: 'DANA',
      name: 'DANA',
      type: 'ewallet',
      fee_percent: 3,
      min_amount: 10_000,
      max_amount: 10_000_000,
    })

    const account = await createAccountWithin(trx, { name: 'Demo Reseller', email: 'demo@example.com' })
    await adjustBalanceWithin(trx, account.id, { amount: 5_000_000, reason: 'demo opening balance', reference: 'demo-opening' })
    return { accountId: account.id, apiKey: account.api_key }
  })
}
