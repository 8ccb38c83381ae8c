import { Type } from '@sinclair/typebox'
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js'

export const SourceInput = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 64, description: 'the provider’s code' }),
  code: Type.String({
    minLength: 1,
    maxLength: 191,
    description: 'the supplier’s product code (Digiflazz buyer_sku_code, a panel’s service id)',
  }),
  priority: Type.Integer({ minimum: 1, maximum: 1000, description: 'tried in ascending order: 1 first' }),
})

export const SourcesBody = Type.Object({
  sources: Type.Array(SourceInput, {
    maxItems: 20,
    description: 'the item’s whole list of sources, replacing the one it had; empty: the item follows its own provider again',
  }),
})

export const SourceView = Type.Object({
  provider: Type.String(),
  kind: StringEnum(['digiflazz', 'smm_panel']),
  code: Type.String(),
  priority: Type.Integer(),
  product: Nullable(
    Type.Object(
      {
        name: Type.String(),
        price: Type.Number({ description: 'Digiflazz: the price; a panel: the rate per 1,000' }),
        active: Type.Boolean({ description: 'on at the supplier' }),
        gone_at: Nullable(Timestamp),
        cut_off_start: Nullable(Type.String({ description: 'HH:MM WIB' })),
        cut_off_end: Nullable(Type.String({ description: 'HH:MM WIB' })),
      },
      { description: 'the supplier product as the last sync read it; null before any sync listed it' },
    ),
  ),
  serving_now: Type.Boolean({ description: 'provider on, product on, listed and outside its cut-off window' }),
})

export const ItemSources = Type.Object({
  item_id: Type.Integer(),
  sources: Type.Array(SourceView, { description: 'by priority' }),
})
