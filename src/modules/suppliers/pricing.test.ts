import { describe, expect, it } from 'vitest'
import { priceFor, ruleFor, sameDecimal, type Rule } from './pricing.js'

const terms = (percent: number | string, flat = 0, round_to = 1, min_margin = 0) => ({ percent, flat, round_to, min_margin })

describe('priceFor: round_up(cost × (1 + percent/100) + flat, round_to), never below cost + min_margin', () => {
  it('marks up exactly, with no float error rounded up into a rupiah', () => {
    // 10,000 × 1.1 is 11,000.000000000002 in floats: a naive ceil would answer 11,001.
    expect(priceFor('10000', terms(10))).toBe(11_000)
    expect(priceFor('19500', terms('2.5'))).toBe(19_988)
    expect(priceFor('19500', terms(0, 250))).toBe(19_750)
    expect(priceFor('0', terms(10))).toBe(0)
  })

  it('rounds up to each step', () => {
    const cost = '19501'
    expect(priceFor(cost, terms(3, 0, 1))).toBe(20_087)
    expect(priceFor(cost, terms(3, 0, 50))).toBe(20_100)
    expect(priceFor(cost, terms(3, 0, 100))).toBe(20_100)
    expect(priceFor(cost, terms(3, 0, 500))).toBe(20_500)
    expect(priceFor(cost, terms(3, 0, 1000))).toBe(21_000)
    // A price already on the step stays.
    expect(priceFor('20000', terms(0, 0, 500))).toBe(20_000)
  })

  it('never goes below cost + min_margin (that floor too on the step)', () => {
    expect(priceFor('19500', terms(1, 0, 1, 500))).toBe(20_000)
    expect(priceFor('19500', terms(1, 0, 100, 450))).toBe(20_000)
    expect(priceFor('19500', terms(10, 0, 1, 500))).toBe(21_450)
  })

  // A panel's rate / 1,000 is source_unit_price() (catalog/sources.sql; its test: catalog/source-rules.test.ts).
  it('prices fractional unit costs (a panel’s rate / 1,000) up to a whole rupiah', () => {
    expect(priceFor('0.0009', terms(20))).toBe(1)
    expect(priceFor('15', terms(20))).toBe(18)
    expect(priceFor('12.5', terms(0, 0, 1, 1))).toBe(14)
  })

  it('without a rule keeps the price, raised to the cost when the cost passes it', () => {
    expect(priceFor('19500', undefined)).toBe(19_500)
    expect(priceFor('19500.2', undefined)).toBe(19_501)
    expect(priceFor('19500', undefined, 21_000)).toBe(21_000)
    expect(priceFor('22000', undefined, 21_000)).toBe(22_000)
  })

  it('compares decimals by value', () => {
    expect(sameDecimal('19500', '19500.000')).toBe(true)
    expect(sameDecimal('0.0009', '0.00090')).toBe(true)
    expect(sameDecimal('0.0009', '0.001')).toBe(false)
  })
})

describe('ruleFor: item > brand with category > brand > category > provider', () => {
  let id = 0
  const rule = (r: Partial<Rule>): Rule => ({
    id: ++id,
    scope: 'provider',
    provider: 'dgf',
    category: null,
    brand: null,
    item_id: null,
    ...terms(1),
    ...r,
  })
  const providerRule = rule({})
  const categoryRule = rule({ scope: 'category', category: 'Games' })
  const brandRule = rule({ scope: 'brand', brand: 'MOBILE LEGENDS' })
  const brandInCategory = rule({ scope: 'brand', brand: 'mobile legends', category: 'games' })
  const itemRule = rule({ scope: 'item', provider: null, item_id: 7 })
  const otherProvider = rule({ scope: 'brand', provider: 'other', brand: 'MOBILE LEGENDS' })
  const all = [otherProvider, itemRule, brandInCategory, brandRule, categoryRule, providerRule]
  const ml = { item_id: 7, provider: 'dgf', category: 'Games', brand: 'MOBILE LEGENDS' }

  it('picks the most specific rule that matches, names in any case', () => {
    expect(ruleFor(all, ml)).toBe(itemRule)
    expect(ruleFor(all, { ...ml, item_id: 8 })).toBe(brandInCategory)
    expect(ruleFor(all, { ...ml, item_id: 8, category: 'Voucher' })).toBe(brandRule)
    expect(ruleFor(all, { ...ml, item_id: 8, brand: 'FREE FIRE' })).toBe(categoryRule)
    expect(ruleFor(all, { ...ml, item_id: 8, brand: 'PLN', category: 'PLN' })).toBe(providerRule)
    expect(ruleFor(all, { ...ml, item_id: 8, provider: 'none' })).toBeUndefined()
  })

  it('lets the older of two rules that differ only by case govern', () => {
    const older = rule({ scope: 'category', category: 'games' })
    const newer = rule({ scope: 'category', category: 'GAMES' })
    expect(ruleFor([newer, older], { ...ml, item_id: 8, brand: 'x' })).toBe(older)
  })
})
