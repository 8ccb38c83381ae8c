/** How the console shows money and time: Rupiah with Indonesian grouping, times on the operator's clock. */
export function viewHelpers(timeZone: string) {
  const clock = new Intl.DateTimeFormat('id-ID', { timeZone, dateStyle: 'medium', timeStyle: 'short' })
  return {
    rp: (amount: number | string | null | undefined) =>
      amount === null || amount === undefined ? '—' : `Rp ${Number(amount).toLocaleString('id-ID')}`,
    time: (at: Date | string | null | undefined) => (at ? clock.format(new Date(at)) : '—'),
    timeZone,
  }
}
export type ViewHelpers = ReturnType<typeof viewHelpers>
