import { sql, type Kysely } from 'kysely'

// docs/design.md §11c, the floor: an item may allow a loss (a promotion); the margin its pricing rule keeps
// above cost (null: the store's default, margin_settings); the most each upstream request may cost
// to keep it; the bill inquiries the floor refused, kept for Margin watch.
const statements = [
  `ALTER TABLE items ADD COLUMN allow_loss boolean NOT NULL DEFAULT false`,
  `ALTER TABLE items ADD COLUMN min_margin bigint CHECK (min_margin BETWEEN 0 AND 1000000000)`,
  `CREATE TABLE margin_settings (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    min_margin bigint NOT NULL DEFAULT 0 CHECK (min_margin BETWEEN 0 AND 1000000000),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `INSERT INTO margin_settings (only_row, min_margin) VALUES (true, 0)`,
  `ALTER TABLE dispatches ADD COLUMN max_cost bigint`,
  `ALTER TABLE bill_inquiries ADD COLUMN floor_refused boolean NOT NULL DEFAULT false`,
  `CREATE INDEX bill_inquiries_floor_refused_idx ON bill_inquiries (created_at) WHERE floor_refused`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
