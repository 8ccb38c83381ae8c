import { EN, type ConsoleTexts } from './texts.en.js'
import { ID } from './texts.id.js'
import { NOTICES_ID } from './texts-notices.id.js'

/**
 * English by default (the operators' docs and the tests read it), Bahasa Indonesia on the switch in
 * the header, kept in a cookie of the console's path: one per browser, the admin token's session included.
 */
export type ConsoleLang = 'en' | 'id'
export const CONSOLE_LANG_COOKIE = 'console_lang'
export const CONSOLE_TEXTS: Record<ConsoleLang, ConsoleTexts> = { en: EN, id: ID }
export const consoleLanguageOf = (asked: string | undefined): ConsoleLang => (asked === 'id' ? 'id' : 'en')

/** A `?done=` notice in the page's language; one not translated stays English. */
export const noticeIn = (lang: ConsoleLang, done: string | undefined, english: unknown) =>
  lang === 'id' && done !== undefined && NOTICES_ID[done] !== undefined ? NOTICES_ID[done] : english
