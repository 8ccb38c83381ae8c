import { digiflazzListOf } from './digiflazz-price-list.js'
import { digiflazzPriceLists } from './digiflazz-price-list.simulator.js'
import type { PriceListRead } from './price-list.js'
import { smmPanelSimulator } from './smm-panel.simulator.js'
import { panelServicesOf } from './smm-services.js'

type ListRead = PriceListRead & { ok: true }

const listOf = (read: { list: object[] } | { failure: unknown }) => ('list' in read ? read.list : [])

/**
 * The simulators' price lists as a freshly started simulator answers them, read as a sync reads
 * them. The demo imports its catalog from these before the service listens (the simulators it
 * serves at /sim/ answer the same lists then).
 */
export function simulatorPriceLists(): { digiflazz: ListRead; smmPanel: ListRead } {
  const lists = digiflazzPriceLists()
  const prepaid = digiflazzListOf(listOf(lists.prepaid.read()), false)
  const pasca = digiflazzListOf(listOf(lists.pasca.read()), true)
  return {
    digiflazz: { ok: true, products: [...prepaid.products, ...pasca.products], skipped: prepaid.skipped + pasca.skipped },
    smmPanel: panelServicesOf(listOf(smmPanelSimulator().services.read())),
  }
}
