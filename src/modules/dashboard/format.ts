import { ICON_HREF } from '../../http/icon.js'
import { viewHelpers as pageHelpers } from '../../http/page-format.js'
import { TEXTS, type Lang } from './texts.js'

/** What every dashboard page gets: its language's texts, Rupiah as every page shows it, times on the Jakarta clock in that language. */
export function viewHelpers(lang: Lang, timeZone: string) {
  const clock = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'id-ID', { timeZone, dateStyle: 'medium', timeStyle: 'short' })
  return {
    t: TEXTS[lang],
    lang,
    icon: ICON_HREF,
    rp: pageHelpers(timeZone).rp,
    time: (at: Date | string | null | undefined) => (at ? clock.format(new Date(at)) : '—'),
    timeZone,
  }
}
