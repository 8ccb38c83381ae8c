import Fastify, { type FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { isDatabaseReachable } from '../db/database.js'
import { registerPoolMetrics } from '../db/replica-metrics.js'
import { AppError } from '../errors.js'
import { adminCatalogRoutes, adminOrderRoutes, adminRoutes, operatorViewRoutes } from '../modules/admin/index.js'
import { complaintAdminRoutes } from '../modules/complaints/index.js'
import { alertAdminRoutes, registerAlertGauges } from '../modules/alerts/index.js'
import { auditRoutes } from '../modules/audit/index.js'
import { billRoutes } from '../modules/bills/index.js'
import { catalogRoutes, renewCatalogAfterWrites } from '../modules/catalog/index.js'
import { complaintRoutes } from '../modules/complaints/index.js'
import { leaderboardRoutes } from '../modules/leaderboard/index.js'
import { consolePlugin } from '../modules/console/index.js'
import { dashboardPlugin, dashboardUserAdminRoutes } from '../modules/dashboard/index.js'
import { ledgerRoutes } from '../modules/ledger/index.js'
import { lockRoutes } from '../modules/locks/index.js'
import { orderRoutes } from '../modules/orders/index.js'
import { priceLevelRoutes } from '../modules/price-levels/index.js'
import {
  bankMutationAdminRoutes,
  bankTransferPageRoutes,
  mootaHookRoutes,
  payPageRoutes,
  topupAdminRoutes,
  topupRoutes,
  tripayCallbackRoutes,
} from '../modules/topups/index.js'
import { fulfilmentAdminRoutes, validationRoutes } from '../modules/fulfilment/index.js'
import { pricingRoutes, sourceRoutes, supplierRoutes } from '../modules/suppliers/index.js'
import { reportRoutes } from '../modules/reports/index.js'
import { teamRoutes } from '../modules/team/index.js'
import { upstreamSimulators } from '../providers/simulators.js'
import { adminWebhookRoutes, storeWebhookDeliveryRoutes, webhookRoutes } from '../modules/webhooks/index.js'
import { actingScope, adminAuth, authorizeOperator, resellerAuth } from './auth.js'
import { registerErrorHandlers } from './error-handler.js'
import { clientErrorHandler, frameworkErrors } from './malformed-requests.js'
import { registerMetrics } from './metrics.js'
import { registerOpenApi } from './openapi.js'
import { echoRequestId, requestIdOf } from './request-log.js'
import { ErrorBody } from './schemas.js'
import { buildValidator } from './validators.js'

export type App = FastifyInstance

const REDACT = ['req.headers["x-apikey"]', 'req.headers.authorization', '*.api_key', '*.webhook_secret', '*.product_license', '*.licenses']

/** Builds the HTTP app on a context; listening is main.ts's business. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const app = Fastify({
    logger: {
      level: ctx.config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      // Lock tokens travel in the release path: keep them out of the request log.
      serializers: {
        req: (req) => ({ method: req.method, url: req.url.replace(/LCK-[0-9A-Za-z]+/g, 'LCK-[redacted]'), remoteAddress: req.ip }),
      },
    },
    trustProxy: ctx.config.trustProxy ?? false,
    genReqId: requestIdOf,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 2048 },
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors,
    clientErrorHandler,
    // A trickling client cannot hold a socket forever; an idle keep-alive socket outlives a proxy's own idle limit.
    connectionTimeout: ctx.config.httpConnectionTimeoutMs,
    requestTimeout: ctx.config.httpRequestTimeoutMs,
    keepAliveTimeout: ctx.config.httpKeepAliveTimeoutMs,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>()

  echoRequestId(app)
  registerErrorHandlers(app)
  // An empty body with a JSON content type (a DELETE, a bodiless POST) is no body, not bad JSON.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined)
    try {
      done(null, secureJson.parse(body as string, undefined, { protoAction: 'remove', constructorAction: 'remove' }))
    } catch {
      done(new AppError('INVALID_JSON'), undefined)
    }
  })
  app.addSchema(ErrorBody)
  await registerOpenApi(app, ctx)
  registerMetrics(app, {
    processMetrics: ctx.config.appEnv !== 'test',
    servedHere: ctx.config.metricsPort === undefined,
    authenticate: adminAuth(ctx),
    gauges: (registry) => {
      registerAlertGauges(registry, ctx.db, (err) => app.log.warn({ err }, 'metrics gauges unread'))
      registerPoolMetrics(registry, ctx.readPools)
    },
  })

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ok = await isDatabaseReachable(ctx.db)
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'database unreachable' })
  })

  await app.register(
    async (reseller) => {
      reseller.addHook('onRequest', resellerAuth(ctx))
      await reseller.register(ledgerRoutes(ctx))
      await reseller.register(catalogRoutes(ctx))
      await reseller.register(orderRoutes(ctx))
      await reseller.register(complaintRoutes(ctx))
      await reseller.register(billRoutes(ctx))
      await reseller.register(lockRoutes(ctx))
      await reseller.register(topupRoutes(ctx))
      await reseller.register(validationRoutes(ctx))
      await reseller.register(webhookRoutes(ctx))
      await reseller.register(leaderboardRoutes(ctx))
    },
    { prefix: '/api/v1' },
  )
  await app.register(
    async (admin) => {
      actingScope(admin)
      renewCatalogAfterWrites(admin, ctx.catalog)
      admin.addHook('onRequest', adminAuth(ctx))
      admin.addHook('onRequest', authorizeOperator)
      await admin.register(adminRoutes(ctx))
      await admin.register(adminOrderRoutes(ctx))
      await admin.register(operatorViewRoutes(ctx))
      await admin.register(topupAdminRoutes(ctx))
      await admin.register(bankMutationAdminRoutes(ctx))
      await admin.register(fulfilmentAdminRoutes(ctx))
      await admin.register(supplierRoutes(ctx))
      await admin.register(pricingRoutes(ctx))
      await admin.register(sourceRoutes(ctx))
      await admin.register(reportRoutes(ctx))
      await admin.register(adminWebhookRoutes(ctx))
      await admin.register(adminCatalogRoutes(ctx))
      await admin.register(priceLevelRoutes(ctx))
      await admin.register(storeWebhookDeliveryRoutes(ctx))
      await admin.register(dashboardUserAdminRoutes(ctx))
      await admin.register(teamRoutes(ctx))
      await admin.register(auditRoutes(ctx))
      await admin.register(complaintAdminRoutes(ctx))
      await admin.register(alertAdminRoutes(ctx))
    },
    { prefix: '/api/admin/v1' },
  )
  // The operator console: its own scope (form bodies, cookies, CSRF, HTML errors) around the same services.
  await app.register(consolePlugin(ctx))
  // The reseller dashboard (docs/design.md §13): its own scope, cookies and sessions, over the same services.
  await app.register(dashboardPlugin(ctx))
  // The payment gateway's side: its signed callback, and outside production the simulator's pay page.
  await app.register(tripayCallbackRoutes(ctx))
  // Bank transfers (docs/design.md §7b): Moota's signed push, and each transfer's instructions page.
  await app.register(mootaHookRoutes(ctx))
  await app.register(bankTransferPageRoutes(ctx))
  if (ctx.config.appEnv !== 'production') await app.register(payPageRoutes(ctx))
  // The upstreams' simulators (docs/design.md §12): what the demo's providers and the tests talk to.
  if (ctx.config.appEnv !== 'production') await app.register(upstreamSimulators().plugin, { prefix: '/sim' })
  return app
}
