import type { AppContext } from '../../context.js'
import { syncActiveProviders } from './sync.service.js'

/** The supplier sync worker's batch: each active provider's list, one provider at a time. */
export function supplierSyncBatch(ctx: AppContext) {
  const settings = {
    syncMinutes: ctx.config.supplierSyncMinutes,
    timeoutMs: ctx.config.providerTimeoutMs,
    jumpPercent: ctx.config.supplierPriceJumpPercent,
  }
  return () => syncActiveProviders(ctx.db, ctx.vault, settings)
}
