import { sql, type Kysely } from 'kysely'

// The one-column rules of the tables a purchase writes become domains. PostgreSQL parses a table's
// CHECK constraints anew at every statement that writes it (stringToNode + planning, ~1.3 µs per
// comparison: 25 of them per purchase, 8 % of its database CPU), while a domain's checks are
// parsed once per connection and only for the columns a statement assigns. The rules are the same
// (accounts.balance, line quantities, statuses...); the rules over several columns stay table checks.
// A new status is now `ALTER DOMAIN … DROP CONSTRAINT …, ADD CONSTRAINT …`.
const MONEY_MAX = '1000000000000000'
const domains: [name: string, base: string, checks: [constraint: string, rule: string][]][] = [
  [
    'money_amount',
    'bigint',
    [
      ['money_amount_non_negative', 'VALUE >= 0'],
      ['money_amount_max', `VALUE <= ${MONEY_MAX}`],
    ],
  ],
  ['positive_money', 'money_amount', [['positive_money_positive', 'VALUE > 0']]],
  ['positive_quantity', 'integer', [['positive_quantity_positive', 'VALUE > 0']]],
  ['whole_count', 'integer', [['whole_count_non_negative', 'VALUE >= 0']]],
  ['month_start', 'date', [['month_start_first_day', 'extract(day FROM VALUE) = 1']]],
  ['account_status', 'text', [['account_status_known', `VALUE IN ('active', 'suspended')`]]],
  ['ledger_direction', 'text', [['ledger_direction_known', `VALUE IN ('credit', 'debit')`]]],
  ['ledger_type', 'text', [['ledger_type_known', `VALUE IN ('topup', 'purchase', 'refund', 'adjustment')`]]],
  ['order_status', 'text', [['order_status_known', `VALUE IN ('pending', 'paid', 'completed', 'canceled')`]]],
  [
    'order_line_status',
    'text',
    [['order_line_status_known', `VALUE IN ('pending', 'processing', 'delivered', 'sent', 'refunded', 'cancel_requested')`]],
  ],
  ['license_status', 'text', [['license_status_known', `VALUE IN ('available', 'sold')`]]],
]

// [table, the one-column checks it drops, column → domain]
const tables: [table: string, drops: string[], columns: [column: string, domain: string][]][] = [
  [
    'accounts',
    ['accounts_status_check', 'accounts_max_active_locks_check', 'accounts_balance_check', 'accounts_money_max'],
    [
      ['status', 'account_status'],
      ['max_active_locks', 'whole_count'],
      ['balance', 'money_amount'],
    ],
  ],
  [
    'ledger_entries',
    [
      'ledger_entries_direction_check',
      'ledger_entries_type_check',
      'ledger_entries_amount_check',
      'ledger_entries_balance_after_check',
      'ledger_entries_money_max',
    ],
    [
      ['direction', 'ledger_direction'],
      ['type', 'ledger_type'],
      ['amount', 'positive_money'],
      ['balance_before', 'money_amount'],
      ['balance_after', 'money_amount'],
    ],
  ],
  [
    'orders',
    ['orders_status_check', 'orders_price_check', 'orders_fees_check', 'orders_money_max'],
    [
      ['status', 'order_status'],
      ['price', 'money_amount'],
      ['fees', 'money_amount'],
      ['amount', 'money_amount'],
    ],
  ],
  [
    'order_lines',
    ['order_lines_status_check', 'order_lines_unit_price_check', 'order_lines_quantity_check', 'order_lines_money_max'],
    [
      ['status', 'order_line_status'],
      ['unit_price', 'money_amount'],
      ['quantity', 'positive_quantity'],
      ['subtotal', 'money_amount'],
    ],
  ],
  ['licenses', ['licenses_status_check'], [['status', 'license_status']]],
  // amount feeds the generated points column, whose type cannot change under it: it keeps its check.
  [
    'leaderboard_months',
    ['leaderboard_months_month_check', 'leaderboard_months_transactions_check'],
    [
      ['month', 'month_start'],
      ['transactions', 'whole_count'],
    ],
  ],
]

export async function up(db: Kysely<any>): Promise<void> {
  // Bare domains first: a column changes to one without a rewrite, then the rules scan each table once.
  for (const [name, base] of domains) await sql.raw(`CREATE DOMAIN ${name} AS ${base}`).execute(db)
  for (const [table, drops, columns] of tables) {
    for (const constraint of drops) await sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${constraint}`).execute(db)
    const changes = columns.map(([column, domain]) => `ALTER COLUMN ${column} TYPE ${domain}`).join(', ')
    await sql.raw(`ALTER TABLE ${table} ${changes}`).execute(db)
  }
  // As in migration 0003: rows stored before a rule (money over 10^15) never stop a start; they are
  // named in a warning and the rule holds for every write from now on.
  for (const [name, , checks] of domains) {
    for (const [constraint, rule] of checks) {
      await sql.raw(`ALTER DOMAIN ${name} ADD CONSTRAINT ${constraint} CHECK (${rule}) NOT VALID`).execute(db)
      await sql
        .raw(
          `DO $$ BEGIN
          ALTER DOMAIN ${name} VALIDATE CONSTRAINT ${constraint};
        EXCEPTION WHEN check_violation THEN
          RAISE WARNING 'stored values break ${constraint} (${rule.replaceAll("'", "''")}): it guards new writes only until they are corrected';
        END $$`,
        )
        .execute(db)
    }
  }
}
