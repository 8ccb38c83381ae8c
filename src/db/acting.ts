import { AsyncLocalStorage } from 'node:async_hooks'
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type TransactionSettings } from 'kysely'
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
const setAll = `select ${SETTINGS.map((name, i) => `set_config('audit.${name}', $${i + 1}, false)`).join(', ')}`
const resetAll = `select ${SETTINGS.map((name) => `set_config('audit.${name}', '', false)`).join(', ')}`

/**
 * Kysely's dialect with the acting operator on each connection it hands out during an operator's
 * write: the audit triggers (modules/audit/audit.sql) read it, so every row the write changes is
 * logged in the write's own transaction without a service passing anything down. Connections
 * handed out elsewhere (resellers, workers) are untouched: their writes skip the triggers.
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

class ActingDriver implements Driver {
  private readonly marked = new WeakSet<DatabaseConnection>()
  readonly savepoint?: Driver['savepoint']
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint']
  readonly releaseSavepoint?: Driver['releaseSavepoint']

  constructor(private readonly inner: Driver) {
    this.savepoint = inner.savepoint?.bind(inner)
    this.rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner)
    this.releaseSavepoint = inner.releaseSavepoint?.bind(inner)
  }

  init() {
    return this.inner.init()
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection()
    const store = acting.getStore()
    if (store?.actor && store.action) {
      const { actor } = store
      const values = [
        actor.id === null ? '' : String(actor.id),
        actor.name,
        actor.role,
        store.clientIp ?? '',
        store.requestId ?? '',
        store.action,
      ]
      try {
        await connection.executeQuery(CompiledQuery.raw(setAll, values))
      } catch (error) {
        await this.inner.releaseConnection(connection)
        throw error
      }
      this.marked.add(connection)
    }
    return connection
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings)
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection)
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection)
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (this.marked.delete(connection)) {
      // A connection whose reset fails is lost anyway (db/database.ts drops it); the next user gets a fresh one.
      await connection.executeQuery(CompiledQuery.raw(resetAll)).catch(() => undefined)
    }
    return this.inner.releaseConnection(connection)
  }
  destroy() {
    return this.inner.destroy()
  }
}
