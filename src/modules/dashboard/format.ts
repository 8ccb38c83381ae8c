import { areaViewHelpers } from '../../http/page-format.js'
import type { SentBack } from './refusals.js'
import { TEXTS, type Lang } from './texts.js'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// Indonesia's three zones by their everyday names; another zone is named as configured.
const ZONE_LABELS: Record<string, string> = {
  'Asia/Jakarta': 'WIB',
  'Asia/Pontianak': 'WIB',
  'Asia/Makassar': 'WITA',
  'Asia/Jayapura': 'WIT',
}
// A field's sentence is found by its id: the field's name with dashes (callback_url → callback-url-error).
const errorId = (name: string) => `${name.replaceAll('_', '-')}-error`

/** The label a time carries, so nobody guesses the clock: WIB for Jakarta's. */
export const zoneLabel = (timeZone: string) => ZONE_LABELS[timeZone] ?? timeZone

/** What every dashboard page gets: its language's texts, Rupiah as every page shows it, times on the Jakarta clock in that language, labelled WIB. */
export function viewHelpers(lang: Lang, timeZone: string) {
  const zone = zoneLabel(timeZone)
  return areaViewHelpers(
    { lang, t: TEXTS[lang], timeZone, locale: lang === 'en' ? 'en-GB' : 'id-ID', zone },
    {
      zone,
      // A form sent back (refusals.ts): the typed value, the field marked, its sentence beside it.
      typed: (form: SentBack | undefined, name: string, otherwise: unknown = '') => form?.values[name] ?? String(otherwise ?? ''),
      invalid: (form: SentBack | undefined, name: string) =>
        form?.errors[name] ? ` aria-invalid="true" aria-describedby="${errorId(name)}"` : '',
      fieldError: (form: SentBack | undefined, name: string) =>
        form?.errors[name] ? `<span class="field-error" id="${errorId(name)}">${escapeHtml(form.errors[name])}</span>` : '',
    },
  )
}
