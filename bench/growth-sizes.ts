/** What the growth seed left: rows and bytes per table that grows, and each B-tree's depth (pageinspect). */
import type pg from 'pg'

export const GROWING = [
  'accounts',
  'orders',
  'order_lines',
  'licenses',
  'ledger_entries',
  'dispatches',
  'webhook_deliveries',
  'audit_log',
] as const

export async function tableSizes(db: pg.Client) {
  await db.query('CREATE EXTENSION IF NOT EXISTS pageinspect')
  const rows = []
  for (const table of GROWING) {
    const { rows: r } = await db.query(
      `SELECT $1::text AS "table", (SELECT count(*) FROM ${table})::bigint::float8 AS rows,
              round(pg_table_size($1::regclass) / 1048576.0)::int AS table_mb,
              round(pg_indexes_size($1::regclass) / 1048576.0)::int AS indexes_mb`,
      [table],
    )
    rows.push(r[0])
  }
  // level 0 is a lone root page: depth = level + 1 pages from root to leaf.
  const { rows: indexes } = await db.query(
    `SELECT i.indrelid::regclass::text AS "table", c.relname AS index, round(pg_relation_size(c.oid) / 1048576.0, 1)::float8 AS mb,
            (SELECT level FROM bt_metap(c.relname)) + 1 AS depth
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
      WHERE a.amname = 'btree' AND i.indrelid::regclass::text = ANY($1)
      ORDER BY 1, 2`,
    [GROWING],
  )
  return { rows, indexes }
}
