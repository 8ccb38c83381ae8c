import { sql } from 'kysely'
import type { Database, DatabaseTimeouts } from './database.js'
import { holdAdvisoryLock } from './functions/advisory-locks.js'
import { sessionSettings } from './session-settings.js'

/**
 * Behind a transaction pooler (DATABASE_POOLER=transaction) nothing can be sent at startup, and a
 * statement outside a transaction sets nothing of its own: the migrate step (which every process
 * runs as it starts) stores jit and the timeouts as the connecting role's defaults in this
 * database, which every server connection the pooler opens starts with. In this database only:
 * the role's other databases (and psql sessions elsewhere) keep theirs.
 */
export async function storeRoleDefaults(db: Database, timeouts: Pick<DatabaseTimeouts, 'statementMs' | 'idleInTransactionMs'>) {
  // The settings a direct connection sends at startup, none of a pool's own.
  const settings = sessionSettings(timeouts).map((setting) => setting.split('='))
  // Every process migrates as it starts: one at a time, and only what differs (two ALTER ROLEs of one row at once collide).
  await db.transaction().execute(async (trx) => {
    await holdAdvisoryLock(trx, 'roleDefaults')
    const stored = new Set(await roleDefaults(trx))
    for (const [name, value] of settings) {
      if (stored.has(`${name}=${value}`)) continue
      // ALTER ROLE takes no parameters: the server quotes the names and values into its text.
      const { rows } = await sql<{ statement: string }>`
        SELECT format('ALTER ROLE %I IN DATABASE %I SET %s = %L', current_user, current_database(), ${name}::text, ${value}::text) AS statement`.execute(
        trx,
      )
      await sql.raw(rows[0].statement).execute(trx)
    }
  })
}

/** The role's defaults in this database, as `name=value` (what storeRoleDefaults left). */
export async function roleDefaults(db: Database): Promise<string[]> {
  const { rows } = await sql<{ setting: string }>`
    SELECT unnest(s.setconfig) AS setting
      FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
     WHERE d.datname = current_database() AND s.setrole = (SELECT oid FROM pg_roles WHERE rolname = current_user)`.execute(db)
  return rows.map((r) => r.setting).sort()
}
