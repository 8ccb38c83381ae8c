import type { ConsoleTexts } from './texts.en.js'
import { CATALOG_ID } from './texts/catalog.id.js'
import { CORE_ID } from './texts/core.id.js'
import { MONEY_ID } from './texts/money.id.js'
import { PRICING_ID } from './texts/pricing.id.js'
import { SALES_ID } from './texts/sales.id.js'
import { TEAM_ID } from './texts/team.id.js'
import { ACTIVITY_ID } from './texts/activity.id.js'

/** The console's texts in Bahasa Indonesia (the switch in the header): the same keys as texts.en.ts, group by group. */
export const ID: ConsoleTexts = { ...CORE_ID, ...SALES_ID, ...CATALOG_ID, ...PRICING_ID, ...MONEY_ID, ...TEAM_ID, ...ACTIVITY_ID }
