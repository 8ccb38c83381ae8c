import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { IdParam } from '../../http/schemas.js'
import { PRICE_LEVEL_DOCS as DOCS } from './price-levels.openapi.js'
import * as S from './price-levels.schemas.js'
import {
  createPriceLevel,
  getItemLevelPrices,
  getLevelRules,
  listPriceLevels,
  replaceLevelRules,
  setItemLevelPrices,
  updatePriceLevel,
} from './price-levels.service.js'

const tags = ['operator']

/** The operator's price levels, their rules and an item's price per level (docs/design.md §5d). */
export function priceLevelRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db } = ctx
  return async (app) => {
    app.get(
      '/price-levels',
      { schema: { tags, summary: 'List price levels', ...operation('operator', DOCS.adminListPriceLevels, { 200: S.LevelList }) } },
      async () => ok(await listPriceLevels(db)),
    )
    app.post(
      '/price-levels',
      {
        schema: {
          tags,
          summary: 'Create a price level',
          body: S.LevelBody,
          ...operation('operator', DOCS.adminCreatePriceLevel, { 200: S.OneLevel }),
        },
      },
      async (request) => ok(await createPriceLevel(db, request.body)),
    )
    app.patch(
      '/price-levels/:code',
      {
        schema: {
          tags,
          summary: 'Rename a price level, make it the default or set its promotion',
          params: S.CodeParam,
          body: S.LevelChangesBody,
          ...operation('operator', DOCS.adminUpdatePriceLevel, { 200: S.OneLevel }),
        },
      },
      async (request) => ok(await updatePriceLevel(db, request.params.code, request.body)),
    )
    app.get(
      '/price-levels/:code/rules',
      {
        schema: {
          tags,
          summary: "A price level's rules",
          params: S.CodeParam,
          ...operation('operator', DOCS.adminListLevelRules, { 200: S.RuleList }),
        },
      },
      async (request) => ok(await getLevelRules(db, request.params.code)),
    )
    app.put(
      '/price-levels/:code/rules',
      {
        schema: {
          tags,
          summary: "Replace a price level's rules (its prices are recomputed at once)",
          params: S.CodeParam,
          body: S.RulesBody,
          ...operation('operator', DOCS.adminPutLevelRules, { 200: S.RulesReplaced }),
        },
      },
      async (request) => ok(await replaceLevelRules(db, request.params.code, request.body.rules)),
    )
    app.get(
      '/items/:id/level-prices',
      {
        schema: {
          tags,
          summary: "An item's price at every level",
          params: IdParam,
          ...operation('operator', DOCS.adminGetItemLevelPrices, { 200: S.ItemLevelPrices }),
        },
      },
      async (request) => ok(await getItemLevelPrices(db, request.params.id)),
    )
    app.put(
      '/items/:id/level-prices',
      {
        schema: {
          tags,
          summary: "Set an item's price for some levels by hand, or back to the rules",
          params: IdParam,
          body: S.LevelPricesBody,
          ...operation('operator', DOCS.adminPutItemLevelPrices, { 200: S.ItemLevelPrices }),
        },
      },
      async (request) => ok(await setItemLevelPrices(db, request.params.id, request.body)),
    )
  }
}
