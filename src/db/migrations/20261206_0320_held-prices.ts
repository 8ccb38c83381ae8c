import { sql, type Kysely } from 'kysely'

// docs/design.md §11c, price-list hygiene: a listed price a sync refused to apply (out of the money bounds,
// or a jump past SUPPLIER_PRICE_JUMP_PERCENT) is logged as a `held` change the operator approves or
// rejects. `hold_open` marks the hold still governing its code (pending, or rejected while the list
// still shows that price): at most one per product.
const statements = [
  `ALTER TABLE supplier_changes DROP CONSTRAINT supplier_changes_kind_check`,
  `ALTER TABLE supplier_changes ADD CONSTRAINT supplier_changes_kind_check CHECK (kind IN ('new', 'price', 'status', 'gone', 'back', 'held'))`,
  `ALTER TABLE supplier_changes ADD COLUMN held_reason text CHECK (held_reason IN ('invalid', 'jump'))`,
  `ALTER TABLE supplier_changes ADD COLUMN hold_open boolean NOT NULL DEFAULT false`,
  `ALTER TABLE supplier_changes ADD COLUMN decision text CHECK (decision IN ('approved', 'rejected'))`,
  `ALTER TABLE supplier_changes ADD COLUMN decided_at timestamptz`,
  `ALTER TABLE supplier_changes ADD CONSTRAINT supplier_changes_held_check CHECK ((kind = 'held') = (held_reason IS NOT NULL))`,
  `CREATE UNIQUE INDEX supplier_changes_open_hold_key ON supplier_changes (provider, code) WHERE hold_open`,
  `ALTER TABLE supplier_syncs ADD COLUMN held_count integer NOT NULL DEFAULT 0`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
