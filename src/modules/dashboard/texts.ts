import type { PageLang } from '../../http/page-format.js'
import { EN } from './texts.en.js'
import { ID, type Texts } from './texts.id.js'

/** Bahasa Indonesia by default (the public docs and most resellers are Indonesian), English on a switch. */
export type Lang = PageLang
export const LANG_COOKIE = 'dashboard_lang'
export const TEXTS: Record<Lang, Texts> = { id: ID, en: EN }
export const languageOf = (asked: string | undefined): Lang => (asked === 'en' ? 'en' : 'id')
