// Node's socket errors, connection exceptions (08), admin/crash shutdown (57P01-03), statement
// and idle-in-transaction timeouts, and a server out of resources (53).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57014',
  '25P03',
  '57P01',
  '57P02',
  '57P03',
])
// node-postgres reports a lost or hung connection with these messages and no code.
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout|timeout expired)/

// A named prepared statement the server does not have (26000), or has from another client (42P05): a pooler
// in transaction mode that cannot carry them (PgBouncer < 1.21, or max_prepared_statements = 0).
const LOST_STATEMENT_CODES = new Set(['26000', '42P05'])

/** What the operator is told once when named statements go missing (docs/operating.md#pgbouncer). */
const LOST_STATEMENT_HINT =
  'named prepared statements go missing between calls: DATABASE_URL (or DATABASE_READ_URL) is a pooler that cannot carry them. ' +
  'Set DB_NAMED_STATEMENTS=false, or run PgBouncer >= 1.21 with max_prepared_statements > 0 (docs/operating.md#pgbouncer)'

/** The server lost a connection's named prepared statement: a pooler between us, or a session reset under us. */
function isLostPreparedStatement(error: unknown): boolean {
  return LOST_STATEMENT_CODES.has(String((error as { code?: unknown } | null)?.code))
}

/**
 * A misconfiguration, not an outage: every request or batch fails alike, so the returned function tells
 * the operator what to change once, at error level, however often it is called with such an error.
 */
export function lostStatementHint(): (error: unknown, log: { error(fields: object, message: string): void }) => void {
  let told = false
  return (error, log) => {
    if (told || !isLostPreparedStatement(error)) return
    told = true
    log.error({ cause: (error as { message?: unknown }).message }, LOST_STATEMENT_HINT)
  }
}

/**
 * The database was lost, did not answer in time, or lost the connection's named statements (the
 * connection is then dropped: its client believes them prepared): 503, never 500 (docs/design.md §12).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string')
    return UNAVAILABLE_CODES.has(code) || LOST_STATEMENT_CODES.has(code) || code.startsWith('08') || code.startsWith('53')
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)
}
