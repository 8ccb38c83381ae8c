import type { AppContext } from '../context.js'
import type { Database } from '../db/database.js'
import { pruneUnpaidInquiries } from '../modules/bills/index.js'
import { pruneChanges } from '../modules/suppliers/index.js'
import { pruneDeliveries } from '../modules/webhooks/index.js'

// Small batches, each its own short statement: a large delete would hold its locks and bloat WAL at once.
const BATCH = 2_000
const DAY_MS = 86_400_000
// An unpaid inquiry is worth nothing once expired; a day of grace keeps it for a reseller's support question.
const INQUIRY_GRACE_MS = DAY_MS

type Prune = (db: Database, before: Date, limit: number) => Promise<number>

async function pruneAll(db: Database, prune: Prune, before: Date): Promise<number> {
  let total = 0
  for (let deleted = BATCH; deleted === BATCH; total += deleted) deleted = await prune(db, before, BATCH)
  return total
}

/**
 * Deletes what is kept for a while only: finished webhook deliveries and suppliers' change logs
 * older than RETENTION_DAYS, and postpaid inquiries that expired unpaid. The books (orders, lines,
 * upstream requests, the ledger, top-ups, the audit log) are never deleted (test/retention.test.ts).
 * Answers how many rows each lost.
 */
export function pruneOldRecords(ctx: AppContext) {
  return async (now = new Date()) => {
    const kept = new Date(now.getTime() - ctx.config.retentionDays * DAY_MS)
    return {
      webhook_deliveries: await pruneAll(ctx.db, pruneDeliveries, kept),
      supplier_changes: await pruneAll(ctx.db, pruneChanges, kept),
      bill_inquiries: await pruneAll(ctx.db, pruneUnpaidInquiries, new Date(now.getTime() - INQUIRY_GRACE_MS)),
    }
  }
}
