import { readDigiflazzPriceList } from '../../providers/digiflazz-price-list.js'
import type { PriceListRead } from '../../providers/price-list.js'
import { readPanelServices } from '../../providers/smm-services.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'

/** Reads a provider's whole list through its protocol (docs/design.md §11b). */
export function readSupplierList(kind: string, account: ProviderAccount, timeoutMs: number): Promise<PriceListRead> {
  switch (kind) {
    case 'digiflazz':
      return readDigiflazzPriceList(account, timeoutMs)
    case 'smm_panel':
      return readPanelServices(account, timeoutMs)
    default:
      return Promise.resolve({ ok: false, reason: `a ${kind} provider publishes no price list` })
  }
}
