import { inTransaction, type Database } from '../../db/database.js'
import { ALERT_KINDS, type AlertKind } from '../../db/schema.js'
import { channelsRow, reconcileKind, type Targets } from './alerts.queries.js'
import { CONDITIONS, type ConditionSettings } from './conditions.queries.js'

export type EvaluateDeps = { db: Database; settings: ConditionSettings }

/** Where alerts go now: each channel an owner set, by its target (alert_channels). */
export async function currentTargets(db: Database): Promise<Targets> {
  const row = await channelsRow(db)
  const targets: Targets = {}
  if (row?.email_to) targets.email = row.email_to
  if (row?.telegram_chat_id) targets.telegram = row.telegram_chat_id
  if (row?.webhook_url) targets.webhook = row.webhook_url
  return targets
}

/**
 * One evaluation (docs/design.md §11e): each kind's condition read, then its alerts opened or cleared
 * in a short transaction of its own, with one delivery per channel per change. Several processes may
 * evaluate at once: the open alert's unique index and the conditional clear make each change happen once.
 */
export async function evaluateAlerts(deps: EvaluateDeps): Promise<Record<AlertKind, { started: number; cleared: number }>> {
  const targets = await currentTargets(deps.db)
  const changes = {} as Record<AlertKind, { started: number; cleared: number }>
  for (const kind of ALERT_KINDS) {
    // A message is at most 500 characters (the table's check): a long account name must not stop the alert.
    const firing = (await CONDITIONS[kind](deps.db, deps.settings)).map((f) => ({ ...f, message: f.message.slice(0, 500) }))
    changes[kind] = await inTransaction(deps.db, (trx) => reconcileKind(trx, kind, firing, targets))
  }
  return changes
}
