import { ICON_HREF } from './icon.js'

/** The two languages the server-rendered pages speak. */
export type PageLang = 'en' | 'id'

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

/**
 * What every page of an area (the console, the dashboard) gets: its language and texts, the icon, Rupiah,
 * counts, and times in the locale the area shows them, labelled with the zone where it names it; then the
 * area's own helpers.
 */
export function areaViewHelpers<T, Own extends object>(
  page: { lang: PageLang; t: T; timeZone: string; locale: string; zone?: string },
  own: Own,
) {
  const format = viewHelpers(page.timeZone, page.locale)
  const { zone } = page
  const time = zone === undefined ? format.time : (at: Date | string | null | undefined) => (at ? `${format.time(at)} ${zone}` : '—')
  return { ...format, time, t: page.t, lang: page.lang, icon: ICON_HREF, ...own }
}
