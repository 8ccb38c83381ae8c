import { sql, type Kysely } from 'kysely'

// docs/design.md §3: every price, amount, balance and line subtotal is at most 10^15 (money_max() in
// db/functions/money.sql), exact in a JSON number. Added NOT VALID, then validated: rows stored
// before the bound never stop a start; they are named in a warning and the bound holds for writes.
const MONEY_MAX = '1000000000000000'
const bounded: [table: string, columns: string[]][] = [
  ['accounts', ['balance']],
  ['ledger_entries', ['amount', 'balance_before', 'balance_after']],
  ['items', ['price']],
  ['orders', ['price', 'fees', 'amount']],
  ['order_lines', ['unit_price', 'subtotal']],
  ['sandbox_orders', ['price', 'amount']],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of bounded) {
    const constraint = `${table}_money_max`
    const check = columns.map((c) => `${c} <= ${MONEY_MAX}`).join(' AND ')
    await sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} CHECK (${check}) NOT VALID`).execute(db)
    await sql
      .raw(
        `DO $$ BEGIN
      ALTER TABLE ${table} VALIDATE CONSTRAINT ${constraint};
    EXCEPTION WHEN check_violation THEN
      RAISE WARNING 'rows of ${table} hold more than 10^15 in ${columns.join(', ')}: ${constraint} guards new writes only until they are corrected';
    END $$`,
      )
      .execute(db)
  }
}
