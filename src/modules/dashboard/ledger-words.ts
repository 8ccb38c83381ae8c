import type { Texts } from './texts.id.js'

// The ledger's descriptions are written once, in English, by the statements that post them (purchase.sql,
// settlement.sql, complaints.sql, the top-up services); the page says them in its language from their
// known shapes. The invoice is linked beside them, so it is not repeated. An operator's own words
// (an adjustment's reason, a refund's cause) are kept as written.

/** One ledger row's description in the page's language. */
export function ledgerDescription(texts: Texts, row: { type: string; description: string; invoice: string | null }): string {
  const say = texts.ledger.says
  const d = row.description
  let m: RegExpExecArray | null
  if (/^Purchase \S+$/.test(d)) return say.purchase
  if ((m = /^Refund \S+: complaint (\d+)$/.exec(d))) return say.complaintRefund(m[1]!)
  if ((m = /^Refund \S+: (.*)$/s.exec(d))) return say.refund(m[1]!)
  if ((m = /^Top-up \S+ via (\S+), bank transfer (\S+)$/.exec(d))) return say.topupBank(m[1]!, m[2]!)
  if ((m = /^Top-up \S+ via (\S+), resolved: (.*)$/s.exec(d))) return say.topupResolved(m[1]!, m[2]!)
  if ((m = /^Top-up \S+ via (\S+)$/.exec(d))) return say.topup(m[1]!)
  if (row.type === 'adjustment') return say.adjustment(d)
  return d
}
