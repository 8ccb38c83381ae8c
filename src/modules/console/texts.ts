import type { PageLang } from '../../http/page-format.js'
import { EN, type ConsoleTexts } from './texts.en.js'
import { ID } from './texts.id.js'
import { NOTICES_EN } from './texts/notices.en.js'
import { NOTICES_ID } from './texts/notices.id.js'

/**
 * English by default (the operators' docs and the tests read it), Bahasa Indonesia on the switch in
 * the header: a person's choice is kept on their row (every browser they sign in from follows it,
 * access.ts), and in a cookie of the console's path for the admin token's session and the sign-in page.
 */
export type ConsoleLang = PageLang
export const CONSOLE_LANG_COOKIE = 'console_lang'
export const CONSOLE_TEXTS: Record<ConsoleLang, ConsoleTexts> = { en: EN, id: ID }
export const consoleLanguageOf = (asked: string | undefined): ConsoleLang => (asked === 'id' ? 'id' : 'en')

const NOTICES: Record<ConsoleLang, Record<string, string>> = { en: NOTICES_EN, id: NOTICES_ID }
/** A notice by its key (`?done=`, or one a page names), in the page's language; without a known key, the page's own. */
export const noticeIn = (lang: ConsoleLang, done: string | undefined, own: unknown) =>
  done !== undefined && NOTICES[lang][done] !== undefined ? NOTICES[lang][done] : own
