import { sql, type RawBuilder } from 'kysely'
import type { Database, Trx } from '../../db/database.js'
import type { PricingScope } from '../../db/schema.js'
import type { Rule } from './pricing.js'

const ruleColumns = sql`id, scope, provider, category, brand, item_id, percent::text AS percent, flat, round_to, min_margin, created_at, updated_at`
export type RuleRow = Rule & { percent: string; created_at: Date; updated_at: Date }

/** Every rule, broadest first: by provider, then scope from provider to item. */
export async function listRules(db: Database | Trx): Promise<RuleRow[]> {
  const { rows } = await sql<RuleRow>`
    SELECT ${ruleColumns} FROM pricing_rules
     ORDER BY provider NULLS LAST, array_position(ARRAY['provider', 'category', 'brand', 'item'], scope), category, brand, item_id, id`.execute(
    db,
  )
  return rows
}

/** The rules that can govern these items: every rule of their sources' providers, and their item rules. */
export async function rulesFor(trx: Trx, providers: string[], itemIds: number[]): Promise<Rule[]> {
  const { rows } = await sql<RuleRow>`
    SELECT ${ruleColumns} FROM pricing_rules
     WHERE provider = ANY(${providers}::text[]) OR item_id = ANY(${itemIds}::bigint[])`.execute(trx)
  return rows
}

export type RuleKey = {
  scope: PricingScope
  provider: string | null
  category: string | null
  brand: string | null
  item_id: number | null
}
export type RuleTermsInput = { percent: number; flat: number; round_to: number; min_margin: number }

const sameName = (column: string, value: string | null): RawBuilder<unknown> =>
  value === null ? sql`${sql.ref(column)} IS NULL` : sql`lower(${sql.ref(column)}) = lower(${value})`

/** The rule with this scope key, names compared in any case, locked for the change. */
export async function findRuleForUpdate(trx: Trx, key: RuleKey): Promise<RuleRow | undefined> {
  const { rows } = await sql<RuleRow>`
    SELECT ${ruleColumns} FROM pricing_rules
     WHERE scope = ${key.scope}
       AND provider IS NOT DISTINCT FROM ${key.provider}
       AND ${sameName('category', key.category)} AND ${sameName('brand', key.brand)}
       AND item_id IS NOT DISTINCT FROM ${key.item_id}::bigint
     ORDER BY id LIMIT 1 FOR UPDATE`.execute(trx)
  return rows[0]
}

export async function updateRuleTerms(trx: Trx, id: number, terms: RuleTermsInput): Promise<RuleRow> {
  const { rows } = await sql<RuleRow>`
    UPDATE pricing_rules
       SET percent = ${String(terms.percent)}::numeric, flat = ${terms.flat}, round_to = ${terms.round_to},
           min_margin = ${terms.min_margin}, updated_at = now()
     WHERE id = ${id}
    RETURNING ${ruleColumns}`.execute(trx)
  return rows[0]!
}

/** A new rule; one inserted meanwhile under the same key (the unique index) takes these terms instead. */
export async function insertRule(trx: Trx, key: RuleKey, terms: RuleTermsInput): Promise<RuleRow> {
  const { rows } = await sql<RuleRow>`
    INSERT INTO pricing_rules (scope, provider, category, brand, item_id, percent, flat, round_to, min_margin, updated_at)
    VALUES (${key.scope}, ${key.provider}, ${key.category}, ${key.brand}, ${key.item_id}::bigint,
            ${String(terms.percent)}::numeric, ${terms.flat}, ${terms.round_to}, ${terms.min_margin}, now())
    ON CONFLICT (scope, coalesce(provider, ''), coalesce(category, ''), coalesce(brand, ''), coalesce(item_id, 0))
    DO UPDATE SET percent = excluded.percent, flat = excluded.flat, round_to = excluded.round_to,
                  min_margin = excluded.min_margin, updated_at = now()
    RETURNING ${ruleColumns}`.execute(trx)
  return rows[0]!
}

export async function deleteRuleRow(trx: Trx, id: number): Promise<RuleRow | undefined> {
  const { rows } = await sql<RuleRow>`DELETE FROM pricing_rules WHERE id = ${id} RETURNING ${ruleColumns}`.execute(trx)
  return rows[0]
}

export async function providerKind(trx: Database | Trx, code: string): Promise<string | undefined> {
  const row = await trx.selectFrom('providers').select('kind').where('code', '=', code).executeTakeFirst()
  return row?.kind
}

export async function itemExists(trx: Trx, id: number): Promise<boolean> {
  return (await trx.selectFrom('items').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}
