/** A node of PostgreSQL's `EXPLAIN (FORMAT JSON)` plan, as far as the plan tests read it. */
export type PlanNode = {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  /** Present under ANALYZE. */
  'Actual Rows': number
  'Actual Loops'?: number
  Plans?: PlanNode[]
}

/** The plan's nodes, the root first. */
export function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}
