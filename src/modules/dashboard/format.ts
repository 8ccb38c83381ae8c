import { ICON_HREF } from '../../http/icon.js'
import { viewHelpers as pageHelpers } from '../../http/page-format.js'
import { TEXTS, type Lang } from './texts.js'

/** What every dashboard page gets: its language's texts, Rupiah as every page shows it, times on the Jakarta clock in that language. */
export function viewHelpers(lang: Lang, timeZone: string) {
  const page = pageHelpers(timeZone, lang === 'en' ? 'en-GB' : 'id-ID')
  return {
    t: TEXTS[lang],
    lang,
    icon: ICON_HREF,
    rp: page.rp,
    time: page.time,
    timeZone,
  }
}
