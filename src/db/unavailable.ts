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

/** The database was lost or did not answer in time: 503, never 500 (docs/design.md §12). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string') return UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('53')
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)
}
