/**
 * One CSV line (RFC 4180). A text starting with = + - @ gets a leading apostrophe, so a spreadsheet
 * shows a description as text instead of running it as a formula; numbers are written as they are.
 */
export function csvLine(values: readonly unknown[]): string {
  return values
    .map((v) => {
      if (v === null || v === undefined) return ''
      if (typeof v === 'number') return String(v)
      let text = String(v)
      if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
    })
    .join(',')
}
