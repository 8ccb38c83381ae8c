import { Migrator, type MigrationProvider } from 'kysely'
import type { Database } from './database.js'
import { migrations } from './migrations/index.js'

const provider: MigrationProvider = { getMigrations: async () => migrations }

export async function migrateToLatest(db: Database): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`, { cause: error })
  }
}
