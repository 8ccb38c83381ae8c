import { AsyncLocalStorage } from 'node:async_hooks'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import type { OperatorRole } from './tables/team.js'

/** Who writes: an operator, the admin token (an owner), or a named system actor (docs/design.md §11d). */
export type Actor = { id: number | null; name: string; role: OperatorRole }

/** What an operator's request is doing; `action` (its operation id) is set only for writes. */
export type Acting = { actor?: Actor; action?: string; clientIp?: string; requestId?: string }

const acting = new AsyncLocalStorage<Acting>()

/** Runs `fn` (and everything it awaits) as `store`; the store may be filled in later, by the auth hook. */
export function runActing<T>(store: Acting, fn: () => T): T {
  return acting.run(store, fn)
}

export function currentActing(): Acting | undefined {
  return acting.getStore()
}

const SETTINGS = ['actor_id', 'actor', 'role', 'client_ip', 'request_id', 'action'] as const
// Local to the transaction: behind a transaction pooler the next transaction may run on another
// server connection, and a session setting would follow this one's into another client's.
const setAll = `select ${SETTINGS.map((name, i) => `set_config('audit.${name}', $${i + 1}, true)`).join(', ')}`

/** The acting operator's values for setAll, or undefined outside an operator's write. */
function actingValues(): string[] | undefined {
  const store = acting.getStore()
  if (!store?.actor || !store.action) return undefined
  const { actor } = store
  return [actor.id === null ? '' : String(actor.id), actor.name, actor.role, store.clientIp ?? '', store.requestId ?? '', store.action]
}

/**
 * Kysely's dialect with the acting operator in each transaction opened during an operator's write:
 * the audit triggers (modules/audit/audit.sql) read it, so every row the write changes is logged in
 * the write's own transaction without a service passing anything down. A statement outside a
 * transaction runs in one of its own with the operator set. Connections handed out elsewhere
 * (resellers, workers) are untouched: their writes skip the triggers.
 */
export class ActingDialect implements Dialect {
  constructor(private readonly inner: Dialect) {}
  createAdapter() {
    return this.inner.createAdapter()
  }
  createDriver(): Driver {
    return new ActingDriver(this.inner.createDriver())
  }
  createIntrospector(db: Kysely<any>) {
    return this.inner.createIntrospector(db)
  }
  createQueryCompiler() {
    return this.inner.createQueryCompiler()
  }
}

/** A connection handed out during an operator's write. */
class ActingConnection implements DatabaseConnection {
  inTransaction = false
  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: Driver,
    readonly values: string[],
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return this.inner.executeQuery<R>(compiled)
    await this.driver.beginTransaction(this.inner, {})
    try {
      await this.inner.executeQuery(CompiledQuery.raw(setAll, this.values))
      const result = await this.inner.executeQuery<R>(compiled)
      await this.driver.commitTransaction(this.inner)
      return result
    } catch (error) {
      // A lost connection is dropped by db/database.ts; on a sound one the transaction ends here.
      await this.driver.rollbackTransaction(this.inner).catch(() => undefined)
      throw error
    }
  }
  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.inTransaction) throw new Error('an operator write streams inside a transaction only')
    return this.inner.streamQuery<R>(compiled, chunkSize)
  }
}

const unwrap = (connection: DatabaseConnection) => (connection instanceof ActingConnection ? connection.inner : connection)

class ActingDriver implements Driver {
  readonly savepoint?: Driver['savepoint']
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint']
  readonly releaseSavepoint?: Driver['releaseSavepoint']

  constructor(private readonly inner: Driver) {
    const { savepoint, rollbackToSavepoint, releaseSavepoint } = inner
    this.savepoint = savepoint && ((connection, ...rest) => savepoint.call(inner, unwrap(connection), ...rest))
    this.rollbackToSavepoint =
      rollbackToSavepoint && ((connection, ...rest) => rollbackToSavepoint.call(inner, unwrap(connection), ...rest))
    this.releaseSavepoint = releaseSavepoint && ((connection, ...rest) => releaseSavepoint.call(inner, unwrap(connection), ...rest))
  }

  init() {
    return this.inner.init()
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection()
    const values = actingValues()
    return values ? new ActingConnection(connection, this.inner, values) : connection
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    await this.inner.beginTransaction(unwrap(connection), settings)
    if (!(connection instanceof ActingConnection)) return
    try {
      await connection.inner.executeQuery(CompiledQuery.raw(setAll, connection.values))
    } catch (error) {
      // Kysely rolls back only a transaction whose begin succeeded.
      await this.inner.rollbackTransaction(connection.inner).catch(() => undefined)
      throw error
    }
    connection.inTransaction = true
  }
  commitTransaction(connection: DatabaseConnection) {
    if (connection instanceof ActingConnection) connection.inTransaction = false
    return this.inner.commitTransaction(unwrap(connection))
  }
  rollbackTransaction(connection: DatabaseConnection) {
    if (connection instanceof ActingConnection) connection.inTransaction = false
    return this.inner.rollbackTransaction(unwrap(connection))
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection))
  }
  destroy() {
    return this.inner.destroy()
  }
}
