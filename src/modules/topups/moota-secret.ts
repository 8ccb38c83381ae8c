import { servesApi } from '../../config.js'
import type { AppContext } from '../../context.js'
import type { Database } from '../../db/database.js'

/**
 * The secret Moota signs pushes with (docs/design.md §7b): MOOTA_WEBHOOK_SECRET; outside production,
 * when unset, one derived from APP_KEY so the simulator and the demo work without setup.
 */
export function mootaSecret(ctx: Pick<AppContext, 'config' | 'vault'>): string | undefined {
  if (ctx.config.mootaWebhookSecret) return ctx.config.mootaWebhookSecret
  return ctx.config.appEnv === 'production' ? undefined : ctx.vault.fingerprint('moota-webhook-secret:development')
}

/** Startup: a production process serving the API refuses to run an active bank_transfer channel whose credits could never arrive. */
export async function checkMootaSecret(db: Database, ctx: Pick<AppContext, 'config' | 'vault'>): Promise<void> {
  if (mootaSecret(ctx) || !servesApi(ctx.config.role)) return
  const active = await db
    .selectFrom('payment_channels')
    .select('code')
    .where('type', '=', 'bank_transfer')
    .where('active', '=', true)
    .execute()
  if (active.length > 0)
    throw new Error(
      `MOOTA_WEBHOOK_SECRET: required while a bank_transfer channel is active (${active.map((c) => c.code).join(', ')}): set it to the secret token of your Moota webhook, or switch the channel off`,
    )
}
