/** What the admin CLI prints: the answer alone, as JSON or (`--table`) as aligned columns. */
export function render(body: unknown, table: boolean): string {
  if (!table) return JSON.stringify(body, null, 2)
  const data = (body as { data?: unknown })?.data ?? body
  const rows: Record<string, unknown>[] = Array.isArray(data)
    ? data
    : data && typeof data === 'object'
      ? Object.entries(data).map(([field, value]) => ({ field, value }))
      : [{ value: data }]
  if (rows.length === 0) return '(none)'
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r ?? {})))]
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))
  const cells = [columns, ...rows.map((r) => columns.map((c) => cell(r?.[c])))]
  const widths = columns.map((_, i) => Math.min(60, Math.max(...cells.map((line) => line[i].length))))
  return cells
    .map((line) =>
      line
        .map((v, i) => (v.length > 60 ? `${v.slice(0, 59)}…` : v.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/**
 * Writes and exits once written; a reader that went away (`| head`) ends the CLI quietly instead of leaving it hanging.
 * A refusal goes to stderr, so stdout only ever carries a result.
 */
export function printAndExit(text: string, code: number, stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? code : 1))
  stream.write(`${text}\n`, () => process.exit(code))
}
