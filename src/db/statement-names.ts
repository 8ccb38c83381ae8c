/**
 * Names of named prepared statements, renewed when the server says a name's plan would now return
 * other columns (0A000 "cached plan must not change result type": a migration run by a newer process
 * altered a table under a statement this process keeps prepared). PostgreSQL keeps the stale one on
 * every connection that parsed it and would refuse it there until that connection ends; a new name
 * is parsed afresh on each. The failed call executed nothing, so outside a transaction it runs once more;
 * inside one it has aborted the transaction, and the caller's retry finds the new name.
 */
const renewals = new Map<string, number>()

/** The name a statement is prepared under now. */
function currentStatementName(name: string): string {
  const renewal = renewals.get(name)
  return renewal === undefined ? name : `${name}_r${renewal}`
}

function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type')
}

/**
 * Runs a statement under its current name; if its plan went stale, renews the name and, when `retry`
 * (no transaction around the statement), runs it once more under the new one.
 */
export async function withFreshPlan<T>(name: string, run: (name: string) => Promise<T>, retry = true): Promise<T> {
  try {
    return await run(currentStatementName(name))
  } catch (error) {
    if (!isStalePlan(error)) throw error
    renewals.set(name, (renewals.get(name) ?? 0) + 1)
    if (!retry) throw error
    return run(currentStatementName(name))
  }
}
