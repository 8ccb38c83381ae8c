import { servesApi } from '../../config.js'
import type { AppContext } from '../../context.js'
import type { Database } from '../../db/database.js'

/**
 * The secret Moota signs pushes with (docs/design.md §7b): MOOTA_WEBHOOK_SECRET. Unset, the hook
 * answers 503 (production refuses to start with an active bank channel without it).
 */
export function mootaSecret(ctx: Pick<AppContext, 'config'>): string | undefined {
  return ctx.config.mootaWebhookSecret || undefined
}

/** Startup: a production process serving the API refuses to run an active bank_transfer channel whose credits could never arrive. */
export async function checkMootaSecret(db: Database, ctx: Pick<AppContext, 'config'>): Promise<void> {
  if (mootaSecret(ctx) || ctx.config.appEnv !== 'production' || !servesApi(ctx.config.role)) return
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
