import { sql } from 'kysely'
import type { Trx } from '../database.js'

// The store-wide locks TypeScript takes; each class is a function of advisory-locks.sql.
const CLASSES = {
  licenseIntake: sql<number>`license_intake_lock_class()`,
  demoSeed: sql<number>`demo_seed_lock_class()`,
  roleDefaults: sql<number>`role_defaults_lock_class()`,
}

/** Waits for, then holds until the transaction ends, one of the store-wide advisory locks. */
export async function holdAdvisoryLock(trx: Trx, lock: keyof typeof CLASSES): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${CLASSES[lock]}, 0)`.execute(trx)
}
