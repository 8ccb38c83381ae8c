// PostgreSQL takes at most 65,535 parameters in one statement: a multi-row INSERT or UPDATE of a
// supplier's list (50,000 products and more) is sent in chunks of this many rows (≤ 20 columns each).
export const CHUNK = 500

export const chunks = <T>(rows: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size))
