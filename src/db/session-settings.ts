/** How long the service waits on PostgreSQL before a request answers 503 (docs/design.md §12). */
export type DatabaseTimeouts = { connectMs: number; statementMs: number; queryMs: number; idleInTransactionMs: number }

/** The settings every connection of a pool runs with; no timeout is 0, not the role's default. */
export function sessionSettings(
  timeouts: Pick<DatabaseTimeouts, 'statementMs' | 'idleInTransactionMs'> | undefined,
  settings: string[] = [],
): string[] {
  return [
    // JIT compiles a plan on each execution (≈ 50 ms) once its estimate crosses jit_above_cost, as the
    // order detail's and the webhook batch's do; short OLTP statements never gain from it.
    'jit=off',
    `statement_timeout=${timeouts?.statementMs ?? 0}`,
    `idle_in_transaction_session_timeout=${timeouts?.idleInTransactionMs ?? 0}`,
    ...settings,
  ]
}

/** `name=value` settings as statements local to the transaction (values are the service's own, never input). */
export const setLocal = (settings: string[]) =>
  settings.map((setting) => {
    const [name, value] = setting.split('=')
    return `SET LOCAL ${name} = '${value}'`
  })
