import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { cloneTestDatabase } from '../../../test/database.js'

// The rules of sources.sql that other modules read instead of spelling them again.
const database = await cloneTestDatabase()
const { db } = database
afterAll(() => database.close())

const one = async <T>(expression: string) => (await sql<{ v: T }>`SELECT ${sql.raw(expression)} AS v`.execute(db)).rows[0].v

describe('source_unit_price: what one unit of an item’s price costs at a source', () => {
  it('is a panel’s rate per 1,000 over 1,000, exactly, and Digiflazz’s price as listed', async () => {
    expect(await one(`source_unit_price(0.90, 'smm_panel')::text`)).toBe('0.0009')
    expect(await one(`source_unit_price(15000, 'smm_panel')::text`)).toBe('15')
    expect(await one(`source_unit_price(19500, 'digiflazz')::text`)).toBe('19500')
    expect(await one(`source_unit_price(19500.00, 'digiflazz')::text`)).toBe('19500')
    // Every digit of a rate at the money bound with six decimals survives (a division would round it).
    expect(await one(`source_unit_price(999999999999999.123456, 'smm_panel')::text`)).toBe('999999999999.999123456')
  })
})

describe('provider_kind_of: the kind of provider each order process buys from', () => {
  it('maps h2h to Digiflazz and smm to a panel, and back; auto and manual buy from none', async () => {
    expect(
      await one(`ARRAY[provider_kind_of('h2h'), provider_kind_of('smm'), provider_kind_of('auto'), provider_kind_of('manual')]`),
    ).toEqual(['digiflazz', 'smm_panel', null, null])
    expect(await one(`ARRAY[process_of_provider_kind('digiflazz'), process_of_provider_kind('smm_panel')]`)).toEqual(['h2h', 'smm'])
  })
})
