import { CATALOG_EN } from './texts/catalog.en.js'
import { CORE_EN } from './texts/core.en.js'
import { MONEY_EN } from './texts/money.en.js'
import { PRICING_EN } from './texts/pricing.en.js'
import { SALES_EN } from './texts/sales.en.js'
import { TEAM_EN } from './texts/team.en.js'
import { ACTIVITY_EN } from './texts/activity.en.js'

/**
 * The console's texts in English (the default), by page group in ./texts/; texts.id.ts has the same
 * keys, each group held to its English one's type, so a text missing in Indonesian fails tsc.
 */
export const EN = { ...CORE_EN, ...SALES_EN, ...CATALOG_EN, ...PRICING_EN, ...MONEY_EN, ...TEAM_EN, ...ACTIVITY_EN }

export type ConsoleTexts = typeof EN
