import type pg from 'pg'

/**
 * Which cluster a server belongs to: initdb's system identifier, which a streaming standby made
 * with pg_basebackup keeps (and keeps once promoted). A read URL naming another cluster would serve
 * someone else's rows as ours (docs/operating.md#read-replicas).
 */
export type ClusterIdentity = { id: string } | { unchecked: string }

// Text: the identifier passes 2^53, which the int8 parser refuses.
const IDENTIFIER = 'SELECT system_identifier::text AS id FROM pg_control_system()'

// Not permitted (EXECUTE revoked from the role), or a PostgreSQL-like server without the function.
const CANNOT_CHECK = new Set(['42501', '42883', '0A000'])

/**
 * The server's identity; `unchecked` with the reason when it may not be read; undefined when the
 * server could not be asked (unreachable, refused the login): asked again at the next check.
 */
export async function clusterIdentity(query: (text: string) => Promise<{ id: string }[]>): Promise<ClusterIdentity | undefined> {
  try {
    const [row] = await query(IDENTIFIER)
    return { id: row.id }
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string }
    return CANNOT_CHECK.has(code ?? '') ? { unchecked: message ?? String(error) } : undefined
  }
}

export const identityOnPool = (pool: pg.Pool) => clusterIdentity(async (text) => (await pool.query<{ id: string }>(text)).rows)

/** A replica's verdict: of the primary's cluster, of another, or not checkable (it then serves, as before the check). */
export type Membership = 'same' | 'other' | 'unchecked'

export function membership(primary: ClusterIdentity, replica: ClusterIdentity): Membership {
  if ('unchecked' in primary || 'unchecked' in replica) return 'unchecked'
  return primary.id === replica.id ? 'same' : 'other'
}

/** Where the read pools say what an operator must know: a read URL refused, a check that could not be made. */
export type ReplicaLog = { warn(fields: object, message: string): void; error(fields: object, message: string): void }

/** A replica's verdict, when it is not plainly "of the primary's cluster". */
export function tellMembership(log: ReplicaLog, pool: string, primary: ClusterIdentity, replica: ClusterIdentity): void {
  if ('unchecked' in primary || 'unchecked' in replica) {
    const cause = 'unchecked' in primary ? `on DATABASE_URL: ${primary.unchecked}` : (replica as { unchecked: string }).unchecked
    log.warn(
      { pool, cause },
      'DATABASE_READ_URL: pg_control_system() could not be read; the check that this server is a standby of DATABASE_URL was skipped',
    )
  } else if (primary.id !== replica.id)
    log.error(
      { pool, system_identifier: replica.id, primary_system_identifier: primary.id },
      'DATABASE_READ_URL: this server is not a standby of DATABASE_URL (another cluster: its system identifier differs); it gets no reads',
    )
}
