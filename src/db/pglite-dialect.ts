import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'

/** Kysely over embedded PGlite: one connection, handed out to one user at a time. */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite)
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve()
  private readonly connection: PGliteConnection

  constructor(pglite: PGlite) {
    this.connection = new PGliteConnection(pglite)
  }

  async init() {}

  // PGlite is a single session: a transaction must own it until commit, so acquisition is a FIFO mutex.
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const previous = this.queue
    this.queue = new Promise<void>((resolve) => (release = resolve))
    await previous
    this.connection.release = release
    return this.connection
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }
  async releaseConnection(connection: DatabaseConnection) {
    ;(connection as PGliteConnection).release()
  }
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {}
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters])
    const affected = result.affectedRows
    return { rows: result.rows, numAffectedRows: affected === undefined ? undefined : BigInt(affected) }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled)
  }
}
