/** How the pages (the console, the dashboard, the pay page) show money, time and counts: Rupiah with Indonesian grouping, times on the operator's clock (in the locale given, Indonesian unless told). */
export function viewHelpers(timeZone: string, locale = 'id-ID') {
  const clock = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' })
  return {
    rp: (amount: number | string | null | undefined) =>
      amount === null || amount === undefined ? '—' : `Rp ${Number(amount).toLocaleString('id-ID')}`,
    time: (at: Date | string | null | undefined) => (at ? clock.format(new Date(at)) : '—'),
    /** "1 order", "2 orders": a count with its noun in the right number. */
    count: (n: number | string, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`,
    timeZone,
  }
}
export type ViewHelpers = ReturnType<typeof viewHelpers>
