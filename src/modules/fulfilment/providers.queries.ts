import type { Database } from '../../db/database.js'

/** The provider's kind (its protocol), if there is one of that code. */
export function providerKindOf(db: Database, code: string) {
  return db.selectFrom('providers').select(['kind']).where('code', '=', code).executeTakeFirst()
}
