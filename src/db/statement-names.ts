/**
 * Names of named prepared statements, renewed when the server says a name's plan would now return
 * other columns (0A000 "cached plan must not change result type": a migration run by a newer process
 * altered a table under a statement this process keeps prepared). PostgreSQL keeps the stale one on
 * every connection that parsed it and would refuse it there until that connection ends; a new name
 * is parsed afresh on each. The failed call executed nothing, so outside a transaction it runs once more.
 */
const renewals = new Map<string, number>()

/** The name a statement is prepared under now. */
export function currentStatementName(name: string): string {
  const renewal = renewals.get(name)
  return renewal === undefined ? name : `${name}_r${renewal}`
}

export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type')
}

/** After a stale plan: later calls prepare the statement under a new name. */
export function renewStatementName(name: string): void {
  renewals.set(name, (renewals.get(name) ?? 0) + 1)
}

/** Runs a single statement (no transaction around it) under its current name, once more under a new one if its plan went stale. */
export async function withFreshPlan<T>(name: string, run: (name: string) => Promise<T>): Promise<T> {
  try {
    return await run(currentStatementName(name))
  } catch (error) {
    if (!isStalePlan(error)) throw error
    renewStatementName(name)
    return run(currentStatementName(name))
  }
}
