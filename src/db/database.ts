import { PGlite } from '@electric-sql/pglite'
import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { AppError } from '../errors.js'
import type { DB } from './schema.js'
import { PGliteDialect } from './pglite-dialect.js'
import { ActingDialect } from './acting.js'
import { pipelinedStatements } from './pipelined.js'
import { sessionSettings, setLocal, type DatabaseTimeouts } from './session-settings.js'
import { withFreshPlan } from './statement-names.js'
import { isDatabaseUnavailable, lostStatementHint } from './unavailable.js'

export { isDatabaseUnavailable, lostStatementHint }

export type Database = Kysely<DB>
export type Trx = Transaction<DB>

/** One statement outside any transaction; on PostgreSQL parsed and planned once per connection. */
export type PreparedStatement = <R>(name: string, text: string, values: unknown[]) => Promise<R[]>

export type DatabaseHandle = {
  db: Database
  driver: 'postgres' | 'pglite'
  /** Raw pool for the few hot statements that run as named prepared statements. */
  pool?: pg.Pool
  /** The pool as Kysely's connections come from it: lost clients dropped, statements named and settings set as opened. */
  connections?: pg.Pool
  /** Where LISTEN connects (db/notifications.ts); absent on PostgreSQL behind a transaction pooler without one: the workers poll. */
  listenConfig?: pg.ClientConfig
  pglite?: PGlite
  prepared: PreparedStatement
  close(): Promise<void>
}

const INT8 = 20
const NUMERIC = 1700

// int8 and numeric aggregates arrive as strings from node-postgres: money must be a JSON number.
function parseSafeInteger(value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new Error(`integer out of safe range: ${value}`)
  return n
}
function parseNumeric(value: string): number {
  return Number(value)
}
pg.types.setTypeParser(INT8, parseSafeInteger)
pg.types.setTypeParser(NUMERIC, parseNumeric)

export type { DatabaseTimeouts }

/**
 * For a pool whose statements all find their rows by key (the webhook worker's): a prepared
 * statement's generic plan, made while its tables were small, would otherwise keep a seq scan or a
 * hash join as they grow (with autovacuum behind, nothing replans it). Generic plans only: left to
 * choose, PostgreSQL planned the message build at every call and the relay at one in four
 * (pg_stat_statements at 122 purchases/s: 1.3 s of planning in 15 s, a fifth of the pool's CPU).
 */
export const KEYED_PLANS = ['enable_seqscan=off', 'enable_hashjoin=off', 'enable_mergejoin=off', 'plan_cache_mode=force_generic_plan']

export type PostgresOptions = {
  /** Without them (migrations, tools, tests) a statement may take as long as it needs. */
  timeouts?: DatabaseTimeouts
  /** Session settings (`name=value`) for every connection. */
  settings?: string[]
  /** Pipelined connections for `prepared` (db/pipelined.ts); 0: it takes a pool client per statement. */
  pipelines?: number
  /**
   * `transaction`: `url` is a pooler in transaction mode (PgBouncer), which refuses startup options
   * and hands each transaction any server connection. Nothing is sent at startup: each transaction
   * sets its settings with SET LOCAL, and a statement outside one runs under the role's defaults
   * (db/role-defaults.ts), or, on a pool with `settings` of its own, in a transaction of its own.
   */
  pooler?: 'none' | 'transaction'
  /** false: every statement unnamed, parsed and planned on each call (a pooler that cannot carry named ones). */
  namedStatements?: boolean
  /** Where LISTEN connects (direct to PostgreSQL); by default `url`, but nowhere behind a transaction pooler; null: nowhere. */
  listenUrl?: string | null
}

export async function openPostgres(url: string, poolMax: number, options: PostgresOptions = {}): Promise<DatabaseHandle> {
  const { timeouts, settings = [], pipelines = 0, pooler = 'none', namedStatements = true } = options
  const session = sessionSettings(timeouts, settings)
  const pooled = pooler === 'transaction'
  const config: pg.ClientConfig = {
    connectionString: url,
    ...(!pooled && { options: session.map((s) => `-c ${s}`).join(' ') }),
    ...(timeouts && {
      // Also bounds the wait for a free pool slot when every connection hangs.
      connectionTimeoutMillis: timeouts.connectMs,
      // Client side: a stopped server never sends the statement timeout's error.
      query_timeout: timeouts.queryMs,
    }),
  }
  const pool = new pg.Pool({ ...config, max: poolMax })
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  // Every client keeps a listener of its own: the pool's comes off while a client is checked out, and
  // a FATAL heard then with no statement in flight (pg_terminate_backend, a restart) would end the
  // process. The fault drill's server once died of an unheard FATAL on some client (which one, not
  // found); this rules the pool's out. Losses still reach callers through their calls.
  pool.on('connect', (client) => client.on('error', () => {}))
  const pipelined = pipelines > 0 ? pipelinedStatements(config, pipelines, namedStatements) : undefined
  // Destroying the query builder ends the pipelined connections with the pool.
  const end = async () => {
    await pipelined?.close()
    await pool.end()
  }
  const statements: StatementOptions = {
    named: namedStatements,
    // One round trip: BEGIN and the settings leave as one simple query.
    local: pooled ? setLocal(session).join('; ') : undefined,
    // The role's defaults hold jit and the timeouts; a pool's own settings need a transaction.
    wrapSingle: pooled && settings.length > 0,
  }
  const connections = discardingLostClients(pool, end, statements)
  const db = new Kysely<DB>({ dialect: new ActingDialect(new PostgresDialect({ pool: connections })) })
  const prepared =
    pipelined?.run ??
    (<R>(name: string, text: string, values: unknown[]) =>
      withFreshPlan(
        name,
        async (current) => (await pool.query<R & pg.QueryResultRow>({ name: namedStatements ? current : undefined, text, values })).rows,
      ))
  // Through a transaction pooler a LISTEN would stay behind on a server connection others share.
  const listenUrl = options.listenUrl !== undefined ? options.listenUrl : pooled ? null : url
  // A listener on another URL is a direct connection: the pool's startup settings are fine there.
  const listenConfig =
    listenUrl === null ? undefined : { ...config, connectionString: listenUrl, options: session.map((s) => `-c ${s}`).join(' ') }
  return { db, driver: 'postgres', pool, connections, listenConfig, prepared, close: () => db.destroy() }
}

// What Kysely sends to open and end a transaction on a connection it holds.
const TRANSACTION_OPENS = /^\s*(begin|start transaction)\b/i
const TRANSACTION_ENDS = /^\s*(commit|rollback)\s*$/i

/** Opens a statement that runs as a named prepared statement on PostgreSQL (parsed and planned once per connection). */
export const PREPARED = '/* prepared */ '
const preparedNames = new Map<string, string>()

/** The statement's name when it asks to be prepared: one per distinct text (a listing has a handful of shapes). */
function preparedName(text: string, named: boolean): string | undefined {
  if (!named || !text.startsWith(PREPARED)) return undefined
  let name = preparedNames.get(text)
  if (name === undefined) {
    name = `k${preparedNames.size}`
    preparedNames.set(text, name)
  }
  return name
}

/** How a pool's statements travel: named or not, and the settings each transaction sets behind a transaction pooler. */
type StatementOptions = { named: boolean; local?: string; wrapSingle: boolean }

/**
 * Kysely's view of the pool. A client whose connection failed or timed out is dropped at once and
 * never reused: it may still hold a transaction open on the server. Its 'error' event is caught
 * while checked out (pg would otherwise throw it and end the process).
 */
export function discardingLostClients(
  pool: pg.Pool,
  end: () => Promise<void>,
  // A direct connection: named statements, nothing set per transaction.
  statements: StatementOptions = { named: true, wrapSingle: false },
) {
  return {
    async connect() {
      const client = await pool.connect()
      let lost: Error | undefined
      let released = false
      const drop = (error: Error) => {
        lost ??= error
        if (released) return
        released = true
        client.removeListener('error', drop)
        // With an error the pool ends the client, destroying the socket of a query still in flight.
        client.release(error)
      }
      client.on('error', drop)
      let inTransaction = false
      const opening = (text: string) => (statements.local ? `${text}; ${statements.local}` : text)
      // A statement outside any transaction on a pool whose settings cannot be the role's: in one of its own.
      const alone = async <T>(run: () => Promise<T>): Promise<T> => {
        if (!statements.wrapSingle || inTransaction) return run()
        await client.query(opening('BEGIN'))
        try {
          const result = await run()
          await client.query('COMMIT')
          return result
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined)
          throw error
        }
      }
      return {
        async query(text: string, values: unknown[]) {
          if (lost) throw lost
          try {
            const name = preparedName(text, statements.named)
            if (name === undefined) {
              if (TRANSACTION_OPENS.test(text)) {
                const result = await client.query(opening(text), values)
                inTransaction = true
                // The multi-statement query answers one result per statement: Kysely expects BEGIN's.
                return Array.isArray(result) ? result[0] : result
              }
              const result = await (TRANSACTION_ENDS.test(text) ? client.query(text, values) : alone(() => client.query(text, values)))
              if (TRANSACTION_ENDS.test(text)) inTransaction = false
              return result
            }
            // Inside a transaction a stale plan has aborted it: renamed, the statement plans afresh when the caller retries.
            return await withFreshPlan(name, (current) => alone(() => client.query({ name: current, text, values })), !inTransaction)
          } catch (error) {
            if (isDatabaseUnavailable(error)) drop(error as Error)
            throw error
          }
        },
        release() {
          if (released) return
          released = true
          client.removeListener('error', drop)
          client.release()
        },
      }
    },
    end,
  } as unknown as pg.Pool
}

/** `sharedBuffersMb`: PostgreSQL's shared_buffers for this instance; unset, PGlite's default (128 MB). */
export async function openPGlite(options: { dataDir?: string; loadDataDir?: Blob; sharedBuffersMb?: number }): Promise<DatabaseHandle> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    ...(options.sharedBuffersMb && { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] }),
    parsers: { [INT8]: (v: string) => parseSafeInteger(v), [NUMERIC]: (v: string) => parseNumeric(v) },
  })
  const db = new Kysely<DB>({ dialect: new ActingDialect(new PGliteDialect(pglite)) })
  return {
    db,
    driver: 'pglite',
    pglite,
    // Through Kysely, so it waits its turn for PGlite's single session like every other query.
    prepared: async <R>(_name: string, text: string, values: unknown[]) => (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows,
    close: async () => {
      await db.destroy()
      await pglite.close()
    },
  }
}

/** Answers false within `withinMs` when the database does not answer, even with every pool slot hung. */
export async function isDatabaseReachable(db: Database, withinMs = 1000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)))
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  )
  try {
    return await Promise.race([answered, late])
  } finally {
    clearTimeout(timer)
  }
}

const RETRYABLE = new Set(['40001', '40P01'])

/**
 * Runs `run` again, after a short random pause so the same collision is not replayed, while it
 * fails with a deadlock, a serialization failure or an error `alsoRetry` accepts. When every
 * attempt failed so, the database is too busy: 503 SERVICE_UNAVAILABLE.
 */
export async function retrying<T>(
  run: () => Promise<T>,
  alsoRetry: (error: { code?: string; constraint?: string }) => boolean = () => false,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      const e = error as { code?: string; constraint?: string }
      if (!RETRYABLE.has(e.code ?? '') && !alsoRetry(e)) throw error
      if (attempt >= attempts) throw new AppError('SERVICE_UNAVAILABLE')
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}

/** Runs a use case in one transaction, retrying deadlocks and serialization failures. */
export async function inTransaction<T>(db: Database, work: (trx: Trx) => Promise<T>): Promise<T> {
  return retrying(() => db.transaction().execute(work))
}
